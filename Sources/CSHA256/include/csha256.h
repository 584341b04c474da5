#ifndef CSHA256_H
#define CSHA256_H

#include <stddef.h>
#include <stdint.h>

/* SHA-256 block compression on the CPU's SHA instructions (x86 SHA-NI). GraphImport's SHA256
   hashes every imported input; the instructions are several times faster than its Swift rounds
   (figures in Benchmarks/README.md). The Swift code stays the fallback: these are used only when the first says so. */

/* 1 if this CPU (and this build) can run graphimport_sha256_compress_blocks, else 0.
   Always 0 on anything but x86-64. */
int graphimport_sha256_accelerated(void);

/* Runs the SHA-256 compression function (FIPS 180-4, 6.2.2) over `blockCount` consecutive
   64-byte blocks at `blocks` (any bytes, no alignment needed), updating the eight words of `state`
   (a to h, native byte order). Call only when graphimport_sha256_accelerated() returns 1. */
void graphimport_sha256_compress_blocks(uint32_t *state, const void *blocks, size_t blockCount);

#endif
