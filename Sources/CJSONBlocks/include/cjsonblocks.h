#ifndef CJSONBLOCKS_H
#define CJSONBLOCKS_H

#include <stddef.h>
#include <stdint.h>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

/* Block scans for GraphImportJSON's string scanner (JSONBlockScan.swift): the bytes of a string
   are compared 16 at a time with SSE2, which every x86-64 CPU has, so no run-time choice is
   needed. Static inline so that Swift inlines them into the scanner's loops. Elsewhere
   graphimport_json_blocks_available() is 0 and the scanner keeps its portable loop. */

/* 1 when this build compares bytes in blocks (x86-64), else 0. */
int graphimport_json_blocks_available(void);

#if defined(__SSE2__)
/* The index of the first byte of [bytes + from, bytes + to) that is '"', '\\', below 0x20 or
   above 0x7F, or `to` when there is none. Reads whole 16-byte blocks, the last one up to 15
   bytes past `to`: those bytes must be readable; their values do not matter (they are masked). */
static inline ptrdiff_t graphimport_json_string_stop(const uint8_t *bytes, ptrdiff_t from, ptrdiff_t to) {
    const __m128i quote = _mm_set1_epi8('"');
    const __m128i backslash = _mm_set1_epi8('\\');
    /* As signed bytes, every byte above 0x7F is negative: one compare finds them and the controls. */
    const __m128i space = _mm_set1_epi8(0x20);
    for (ptrdiff_t index = from; index < to; index += 16) {
        __m128i block = _mm_loadu_si128((const __m128i *)(bytes + index));
        __m128i hits = _mm_or_si128(
            _mm_or_si128(_mm_cmpeq_epi8(block, quote), _mm_cmpeq_epi8(block, backslash)), _mm_cmplt_epi8(block, space));
        unsigned mask = (unsigned)_mm_movemask_epi8(hits);
        if (mask != 0) {
            ptrdiff_t found = index + __builtin_ctz(mask);
            return found < to ? found : to;
        }
    }
    return to;
}
#else
static inline ptrdiff_t graphimport_json_string_stop(const uint8_t *bytes, ptrdiff_t from, ptrdiff_t to) {
    (void)bytes;
    (void)from;
    return to; /* never called: graphimport_json_blocks_available() is 0 */
}
#endif

#endif
