#include "gcn.h"
/* A small stack-machine interpreter (one program per work-item): a big switch in a loop,
 * a private operand stack, and data-dependent jumps. */

enum { OP_HALT, OP_PUSH, OP_ADD, OP_SUB, OP_MUL, OP_DIV, OP_DUP, OP_SWAP, OP_JZ, OP_JMP, OP_LOAD, OP_STORE,
       OP_LT, OP_NEG, OP_MOD, OP_SHL };

kernel void stack_vm(global const int *code, global const int *code_off, global int *mem, global int *result,
                     int max_steps) {
  int p = get_global_id(0);
  global const int *prog = code + code_off[p];
  global int *m = mem + p * 16;
  int stack[32];
  int sp = 0, pc = 0, steps = 0;
  while (steps++ < max_steps) {
    int op = prog[pc++];
    switch (op) {
    case OP_HALT: goto done;
    case OP_PUSH: stack[sp++] = prog[pc++]; break;
    case OP_ADD: sp--; stack[sp - 1] += stack[sp]; break;
    case OP_SUB: sp--; stack[sp - 1] -= stack[sp]; break;
    case OP_MUL: sp--; stack[sp - 1] *= stack[sp]; break;
    case OP_DIV: sp--; stack[sp - 1] = stack[sp] ? stack[sp - 1] / stack[sp] : 0; break;
    case OP_MOD: sp--; stack[sp - 1] = stack[sp] ? stack[sp - 1] % stack[sp] : 0; break;
    case OP_DUP: stack[sp] = stack[sp - 1]; sp++; break;
    case OP_SWAP: { int t = stack[sp - 1]; stack[sp - 1] = stack[sp - 2]; stack[sp - 2] = t; break; }
    case OP_JZ: { int t = prog[pc++]; if (stack[--sp] == 0) pc = t; break; }
    case OP_JMP: pc = prog[pc]; break;
    case OP_LOAD: stack[sp++] = m[prog[pc++] & 15]; break;
    case OP_STORE: m[prog[pc++] & 15] = stack[--sp]; break;
    case OP_LT: sp--; stack[sp - 1] = stack[sp - 1] < stack[sp]; break;
    case OP_NEG: stack[sp - 1] = -stack[sp - 1]; break;
    case OP_SHL: sp--; stack[sp - 1] <<= (stack[sp] & 31); break;
    default: result[p] = 0x7fffffff; return;
    }
    sp &= 31;
  }
done:
  result[p] = sp ? stack[sp - 1] : 0;
}

/* dense switch lowered to a jump table or to a lookup/select chain */
kernel void activation_switch(global float *x, global const int *kind, int n) {
  int i = get_global_id(0);
  if (i >= n) return;
  float v = x[i];
  switch (kind[i / 64]) {
  case 0: v = fmax(v, 0.0f); break;
  case 1: v = v > 0 ? v : 0.01f * v; break;
  case 2: v = 1.0f / (1.0f + native_exp(-v)); break;
  case 3: { float e = native_exp(2.0f * v); v = (e - 1.0f) / (e + 1.0f); break; }
  case 4: v = v * (1.0f / (1.0f + native_exp(-1.702f * v))); break;
  case 5: v = clamp(v, -1.0f, 1.0f); break;
  case 6: v = v > 0 ? v : native_exp(v) - 1.0f; break;
  default: break;
  }
  x[i] = v;
}

/* sparse switch on a hashed key (compare tree) */
kernel void opcode_cost(global const uint *ops, global uint *cost) {
  uint i = get_global_id(0);
  uint c;
  switch (ops[i]) {
  case 0x10: c = 1; break;
  case 0x4a: c = 4; break;
  case 0x99: c = 16; break;
  case 0x1000: c = 2; break;
  case 0x7fff: c = 7; break;
  case 0xdeadbeef: c = 100; break;
  default: c = ops[i] & 3;
  }
  cost[i] = c;
}
