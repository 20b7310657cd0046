/* Calling an outlined microtask with the shared-variable pointers __kmpc_fork_call received
 * as varargs: void fn(kmp_int32 *gtid, kmp_int32 *btid, void *a0, ..., void *a{argc-1}).
 * C cannot forward a variable argument count, so on x86-64 a trampoline (written here for
 * the System V calling convention) lays the pointers out: the first four in rdx, rcx, r8,
 * r9, the rest on the stack.  It keeps a frame pointer and CFI so debuggers and OMPT
 * unwinders walk through it.  Elsewhere a switch serves up to 16 pointers.
 *
 * exit_frame (non-NULL while a tool listens: the task's frame.exit_frame.ptr) gets the
 * invoker's own frame pointer before the call: the frame of the runtime procedure that calls
 * the user's code, which tools (and LLVM's OMPT tests: __builtin_frame_address(1) in the
 * outlined function) compare with the implicit task's exit frame. */
#include "kmp.h"

#if defined(__x86_64__)
/* tomp_kmp_invoke(fn=rdi, gtid=rsi, btid=rdx, argc=ecx, argv=r8, exit_frame=r9): argv has at least
 * TOMP_KMP_ARGV_MIN entries (the caller pads), so the four register loads stay inside it. */
__asm__(".text\n"
        ".globl tomp_kmp_invoke\n"
        ".hidden tomp_kmp_invoke\n"
        ".type tomp_kmp_invoke, @function\n"
        ".p2align 4\n"
        "tomp_kmp_invoke:\n"
        "  .cfi_startproc\n"
        "  endbr64\n"
        "  pushq %rbp\n"
        "  .cfi_def_cfa_offset 16\n"
        "  .cfi_offset %rbp, -16\n"
        "  movq %rsp, %rbp\n"
        "  .cfi_def_cfa_register %rbp\n"
        "  testq %r9, %r9\n" /* exit_frame: this frame */
        "  jz 3f\n"
        "  movq %rbp, (%r9)\n"
        "3:\n"
        "  movq %rdi, %r10\n"     /* fn */
        "  movq %r8, %r11\n"      /* argv */
        "  movl %ecx, %eax\n"     /* argc, zero-extended */
        "  movq %rsi, %rdi\n"     /* gtid */
        "  movq %rdx, %rsi\n"     /* btid */
        "  leaq -4(%rax), %rcx\n" /* pointers passed on the stack */
        "  testq %rcx, %rcx\n"
        "  jle 2f\n"
        "  leaq (,%rcx,8), %rdx\n"
        "  subq %rdx, %rsp\n"
        "  andq $-16, %rsp\n"
        "1:\n"
        "  movq 24(%r11,%rcx,8), %rdx\n" /* argv[4 + rcx - 1] */
        "  movq %rdx, -8(%rsp,%rcx,8)\n"
        "  decq %rcx\n"
        "  jnz 1b\n"
        "2:\n"
        "  movq (%r11), %rdx\n"
        "  movq 8(%r11), %rcx\n"
        "  movq 16(%r11), %r8\n"
        "  movq 24(%r11), %r9\n"
        "  xorl %eax, %eax\n" /* no vector registers: the callee may be variadic */
        "  call *%r10\n"
        "  leave\n"
        "  .cfi_def_cfa %rsp, 8\n"
        "  ret\n"
        "  .cfi_endproc\n"
        ".size tomp_kmp_invoke, .-tomp_kmp_invoke\n");
#else
void tomp_kmp_invoke(kmpc_micro fn, kmp_int32 *gtid, kmp_int32 *btid, int argc, void **a,
                     void **exit_frame) {
  if (exit_frame) *exit_frame = __builtin_frame_address(0);
  switch (argc) {
#define A4 a[0], a[1], a[2], a[3]
#define A8 A4, a[4], a[5], a[6], a[7]
#define A12 A8, a[8], a[9], a[10], a[11]
  case 0:
    fn(gtid, btid);
    break;
  case 1:
    fn(gtid, btid, a[0]);
    break;
  case 2:
    fn(gtid, btid, a[0], a[1]);
    break;
  case 3:
    fn(gtid, btid, a[0], a[1], a[2]);
    break;
  case 4:
    fn(gtid, btid, A4);
    break;
  case 5:
    fn(gtid, btid, A4, a[4]);
    break;
  case 6:
    fn(gtid, btid, A4, a[4], a[5]);
    break;
  case 7:
    fn(gtid, btid, A4, a[4], a[5], a[6]);
    break;
  case 8:
    fn(gtid, btid, A8);
    break;
  case 9:
    fn(gtid, btid, A8, a[8]);
    break;
  case 10:
    fn(gtid, btid, A8, a[8], a[9]);
    break;
  case 11:
    fn(gtid, btid, A8, a[8], a[9], a[10]);
    break;
  case 12:
    fn(gtid, btid, A12);
    break;
  case 13:
    fn(gtid, btid, A12, a[12]);
    break;
  case 14:
    fn(gtid, btid, A12, a[12], a[13]);
    break;
  case 15:
    fn(gtid, btid, A12, a[12], a[13], a[14]);
    break;
  case 16:
    fn(gtid, btid, A12, a[12], a[13], a[14], a[15]);
    break;
  default:
    tomp_fatal("__kmpc_fork_call: %d shared arguments (at most 16 on this machine)", argc);
  }
}
#endif
