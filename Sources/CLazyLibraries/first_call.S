// The first call of a lazy function: %r11 holds its slot's address (trampolines.S). Saves every
// argument register (and %al, the vector-register count of a varargs call), has the resolver
// fill the slot, restores them and continues into the real function as if called directly.
#if defined(__x86_64__) && defined(__linux__)
    .text
    .globl xt_lazy_first_call
    .hidden xt_lazy_first_call
    .type xt_lazy_first_call, @function
    .p2align 4
xt_lazy_first_call:
    .cfi_startproc
    pushq %rdi
    .cfi_adjust_cfa_offset 8
    pushq %rsi
    .cfi_adjust_cfa_offset 8
    pushq %rdx
    .cfi_adjust_cfa_offset 8
    pushq %rcx
    .cfi_adjust_cfa_offset 8
    pushq %r8
    .cfi_adjust_cfa_offset 8
    pushq %r9
    .cfi_adjust_cfa_offset 8
    pushq %rax
    .cfi_adjust_cfa_offset 8
    pushq %r10
    .cfi_adjust_cfa_offset 8
    pushq %r11
    .cfi_adjust_cfa_offset 8
    // Entered with %rsp = 8 mod 16 (the return address); nine pushes make it 0 mod 16.
    subq $128, %rsp
    .cfi_adjust_cfa_offset 128
    movaps %xmm0, 0(%rsp)
    movaps %xmm1, 16(%rsp)
    movaps %xmm2, 32(%rsp)
    movaps %xmm3, 48(%rsp)
    movaps %xmm4, 64(%rsp)
    movaps %xmm5, 80(%rsp)
    movaps %xmm6, 96(%rsp)
    movaps %xmm7, 112(%rsp)
    movq %r11, %rdi
    call xt_lazy_resolve
    movaps 0(%rsp), %xmm0
    movaps 16(%rsp), %xmm1
    movaps 32(%rsp), %xmm2
    movaps 48(%rsp), %xmm3
    movaps 64(%rsp), %xmm4
    movaps 80(%rsp), %xmm5
    movaps 96(%rsp), %xmm6
    movaps 112(%rsp), %xmm7
    addq $128, %rsp
    .cfi_adjust_cfa_offset -128
    popq %r11
    .cfi_adjust_cfa_offset -8
    popq %r10
    .cfi_adjust_cfa_offset -8
    popq %rax
    .cfi_adjust_cfa_offset -8
    popq %r9
    .cfi_adjust_cfa_offset -8
    popq %r8
    .cfi_adjust_cfa_offset -8
    popq %rcx
    .cfi_adjust_cfa_offset -8
    popq %rdx
    .cfi_adjust_cfa_offset -8
    popq %rsi
    .cfi_adjust_cfa_offset -8
    popq %rdi
    .cfi_adjust_cfa_offset -8
    jmp *(%r11)
    .cfi_endproc
    .size xt_lazy_first_call, .-xt_lazy_first_call
#endif
    .section .note.GNU-stack,"",@progbits
