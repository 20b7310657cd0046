/* Cost of the four locked read-modify-writes tomp's barrier does in a team of one (arrived add,
 * arrived CAS, gen add, seq add), on an uncontended cache line.  docs/benchmarks.md, proposal 2.
 * gcc -O2 rmw-cost.c && ./a.out   -> on the 2-vCPU Xeon VM of 2026-11-22: 25.3-25.9 ns per iteration */
#include <stdio.h>
#include <time.h>
static unsigned a,g,s,x;
static double now(void){struct timespec t;clock_gettime(CLOCK_MONOTONIC,&t);return t.tv_sec+t.tv_nsec*1e-9;}
int main(void){long N=20000000;double t0=now();
for(long i=0;i<N;i++){__atomic_add_fetch(&a,1,__ATOMIC_SEQ_CST);unsigned n=1;__atomic_compare_exchange_n(&a,&n,0,0,__ATOMIC_SEQ_CST,__ATOMIC_RELAXED);__atomic_add_fetch(&g,1,__ATOMIC_SEQ_CST);__atomic_add_fetch(&s,1,__ATOMIC_SEQ_CST);}
double t1=now();
for(long i=0;i<N;i++){__atomic_store_n(&x,i,__ATOMIC_RELAXED);__asm__ volatile(""::: "memory");}
double t2=now();
printf("4 locked RMW: %.1f ns/iter; plain store loop: %.1f ns/iter\n",(t1-t0)/N*1e9,(t2-t1)/N*1e9);}
