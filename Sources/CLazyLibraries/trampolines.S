// The trampolines of lazy.c: one per function of symbols.def, hidden, x86-64 Linux only (elsewhere
// the libraries are linked as usual).
#if defined(__x86_64__) && defined(__linux__)

        .text
// Each function jumps to its address in the table once loaded; before that, to the loader,
// with its index in r11 (a scratch register no C argument uses).
.macro TRAMPOLINE index, name
        .globl \name
        .hidden \name
        .type \name, @function
\name:
        movq carnet_lazy_table+8*\index(%rip), %r11
        testq %r11, %r11
        jz 1f
        jmpq *%r11
1:      movq $\index, %r11
        jmp carnet_lazy_slow_path
        .size \name, .-\name
.endm
#define LAZY(index, library, name) TRAMPOLINE index, name ;
#include "symbols.def"

// Saves every argument register (integer, the vector count in al, and xmm0-7), loads the
// libraries, restores them and jumps to the function now in the table.
        .type carnet_lazy_slow_path, @function
carnet_lazy_slow_path:
        pushq %rdi
        pushq %rsi
        pushq %rdx
        pushq %rcx
        pushq %r8
        pushq %r9
        pushq %rax
        pushq %r11
        subq $136, %rsp
        movdqu %xmm0, 0(%rsp)
        movdqu %xmm1, 16(%rsp)
        movdqu %xmm2, 32(%rsp)
        movdqu %xmm3, 48(%rsp)
        movdqu %xmm4, 64(%rsp)
        movdqu %xmm5, 80(%rsp)
        movdqu %xmm6, 96(%rsp)
        movdqu %xmm7, 112(%rsp)
        call carnet_lazy_load
        movdqu 0(%rsp), %xmm0
        movdqu 16(%rsp), %xmm1
        movdqu 32(%rsp), %xmm2
        movdqu 48(%rsp), %xmm3
        movdqu 64(%rsp), %xmm4
        movdqu 80(%rsp), %xmm5
        movdqu 96(%rsp), %xmm6
        movdqu 112(%rsp), %xmm7
        addq $136, %rsp
        popq %r11
        popq %rax
        popq %r9
        popq %r8
        popq %rcx
        popq %rdx
        popq %rsi
        popq %rdi
        leaq carnet_lazy_table(%rip), %r10
        jmpq *(%r10,%r11,8)
        .size carnet_lazy_slow_path, .-carnet_lazy_slow_path
        .section .note.GNU-stack,"",@progbits
#endif
