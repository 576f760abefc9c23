// SPDX-License-Identifier: BSD-2-Clause
/* Corpus: a small register-machine interpreter.  The dispatch switch compiles
 * to a jump table (indirect jumps with many targets) and the NATIVE opcode
 * calls through a function-pointer table (indirect calls). */
#include "../common/rt.h"

enum op { OP_LI, OP_ADD, OP_SUB, OP_MUL, OP_REM, OP_BLT, OP_JMP, OP_NATIVE,
          OP_MOV, OP_HALT };

struct insn {
    uint8_t op, a, b, c;
    int32_t imm;
};

typedef uint32_t (*native_fn)(uint32_t, uint32_t);

static __attribute__((noinline)) uint32_t mix_add(uint32_t x, uint32_t y)
{
    return x + y * 3u;
}

static __attribute__((noinline)) uint32_t mix_xor(uint32_t x, uint32_t y)
{
    return x ^ (y << 5);
}

static __attribute__((noinline)) uint32_t mix_rot(uint32_t x, uint32_t y)
{
    unsigned s = y & 31u;

    return s ? (x << s) | (x >> (32 - s)) : x;
}

static native_fn const natives[] = { mix_add, mix_xor, mix_rot };

/* r2 = sum over i < 120 of natives[i % 3](r2 + (i*i % 7), i). */
static const struct insn program[] = {
    { OP_LI, 0, 0, 0, 0 },          /* 0: i = 0 */
    { OP_LI, 1, 0, 0, 120 },        /* 1: n */
    { OP_LI, 2, 0, 0, 0 },          /* 2: acc */
    { OP_LI, 3, 0, 0, 7 },          /* 3 */
    { OP_LI, 4, 0, 0, 1 },          /* 4 */
    { OP_LI, 6, 0, 0, 3 },          /* 5 */
    { OP_MUL, 5, 0, 0, 0 },         /* 6: loop: r5 = i * i */
    { OP_REM, 5, 5, 3, 0 },         /* 7: r5 %= 7 */
    { OP_ADD, 2, 2, 5, 0 },         /* 8 */
    { OP_REM, 7, 0, 6, 0 },         /* 9: r7 = i % 3 */
    { OP_NATIVE, 2, 0, 7, 0 },      /* 10: r2 = natives[r7](r2, i) */
    { OP_ADD, 0, 0, 4, 0 },         /* 11: i++ */
    { OP_BLT, 0, 1, 0, 6 },         /* 12: if i < n goto loop */
    { OP_MOV, 0, 2, 0, 0 },         /* 13 */
    { OP_HALT, 0, 0, 0, 0 },        /* 14 */
};

static __attribute__((noinline)) uint32_t run(const struct insn *code)
{
    uint32_t r[8] = { 0 };
    unsigned pc = 0;

    for (;;) {
        const struct insn *in = &code[pc++];

        switch (in->op) {
        case OP_LI:     r[in->a] = (uint32_t)in->imm; break;
        case OP_ADD:    r[in->a] = r[in->b] + r[in->c]; break;
        case OP_SUB:    r[in->a] = r[in->b] - r[in->c]; break;
        case OP_MUL:    r[in->a] = r[in->b] * r[in->c]; break;
        case OP_REM:    r[in->a] = r[in->b] % r[in->c]; break;
        case OP_BLT:    if (r[in->a] < r[in->b]) pc = (unsigned)in->imm; break;
        case OP_JMP:    pc = (unsigned)in->imm; break;
        case OP_NATIVE: r[in->a] = natives[r[in->c] % 3](r[in->a], r[in->b]);
                        break;
        case OP_MOV:    r[in->a] = r[in->b]; break;
        case OP_HALT:   return r[0];
        default:        return 0xdeadu;
        }
    }
}

static uint32_t reference(void)
{
    uint32_t acc = 0;

    for (uint32_t i = 0; i < 120; i++)
        acc = natives[i % 3](acc + i * i % 7, i);
    return acc;
}

int main(void)
{
    return run(program) == reference() ? 0 : 1;
}
