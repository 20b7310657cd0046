/* Why omp_unset_lock is 3 ns slower than libgomp: a plain load of the lock word right before the
 * locked RMW on it (docs/benchmarks.md, proposal 4).  gcc -O2 unlock-load-cost.c && ./a.out
 * On the 2-vCPU Xeon VM of 2026-11-22: cas+xadd 15.2, cas+xchg 14.9, cas+load+xadd 18.4 ns. */
#include <stdio.h>
#include <time.h>
static unsigned w; static long c;
static double now(void){struct timespec t;clock_gettime(CLOCK_MONOTONIC,&t);return t.tv_sec+t.tv_nsec*1e-9;}
int main(void){long N=50000000;double t0=now();
for(long i=0;i<N;i++){unsigned z=0;__atomic_compare_exchange_n(&w,&z,1,0,__ATOMIC_ACQ_REL,__ATOMIC_ACQUIRE);c++;__asm__ volatile("":::"memory");__atomic_fetch_sub(&w,1,__ATOMIC_RELEASE);}
double t1=now();
for(long i=0;i<N;i++){unsigned z=0;__atomic_compare_exchange_n(&w,&z,1,0,__ATOMIC_ACQ_REL,__ATOMIC_ACQUIRE);c++;__asm__ volatile("":::"memory");__atomic_exchange_n(&w,0,__ATOMIC_RELEASE);}
double t2=now();
for(long i=0;i<N;i++){unsigned z=0;__atomic_compare_exchange_n(&w,&z,1,0,__ATOMIC_ACQ_REL,__ATOMIC_ACQUIRE);c++;__asm__ volatile("":::"memory");if(__atomic_load_n(&w,__ATOMIC_RELAXED)&3)__atomic_fetch_sub(&w,1,__ATOMIC_RELEASE);}
double t3=now();
printf("cas+xadd %.1f ns, cas+xchg %.1f ns, cas+load+xadd %.1f ns\n",(t1-t0)/N*1e9,(t2-t1)/N*1e9,(t3-t2)/N*1e9);}
