#include "csha256.h"

#if defined(__x86_64__)

#include <immintrin.h>

/* The target attribute lets this one file use the SHA, SSSE3 and SSE4.1 instructions without
   compiling the whole package for CPUs that have them; nothing here runs unless the check in
   graphimport_sha256_accelerated passed. */
#define SHA_NI __attribute__((target("sha,sse4.1,ssse3")))

/* FIPS 180-4, 4.2.2: the first 32 bits of the fractional parts of the cube roots of the first
   64 primes. Aligned so that four of them load as one vector. */
static const uint32_t roundConstants[64] __attribute__((aligned(16))) = {
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
};

int graphimport_sha256_accelerated(void) {
    /* SHA-NI works on XMM registers only, which every x86-64 OS saves, so the CPU's feature
       bit is the whole question. SSSE3 and SSE4.1 are checked too: a CPU with SHA has them,
       but a virtual machine may report features in odd combinations. */
    __builtin_cpu_init();
    return __builtin_cpu_supports("sha") && __builtin_cpu_supports("ssse3") && __builtin_cpu_supports("sse4.1");
}

/* Loads message words 4i to 4i+3 of a block: the message is big-endian (FIPS 180-4, 3.1), so
   each 4-byte word has its bytes reversed; lane 0 holds the lowest-numbered word. */
static inline SHA_NI __m128i loadWords(const uint8_t *block, int i) {
    const __m128i reverseEachWord = _mm_set_epi8(12, 13, 14, 15, 8, 9, 10, 11, 4, 5, 6, 7, 0, 1, 2, 3);
    return _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(block + 16 * i)), reverseEachWord);
}

/* The message schedule (FIPS 180-4, 6.2.2 step 1) four words at a time: given words t-16 to t-1
   in four vectors, returns words t to t+3. sha256msg1 adds sigma0 of the next word to each of
   t-16..t-13, the alignr supplies t-7..t-4, and sha256msg2 adds sigma1 of t-2 and t-1 (and of
   the words it has just made, for t+2 and t+3). */
static inline SHA_NI __m128i nextWords(__m128i w16, __m128i w12, __m128i w8, __m128i w4) {
    __m128i sum = _mm_add_epi32(_mm_sha256msg1_epu32(w16, w12), _mm_alignr_epi8(w4, w8, 4));
    return _mm_sha256msg2_epu32(sum, w4);
}

/* Four rounds (FIPS 180-4, 6.2.2 step 3) on words 4i to 4i+3. sha256rnds2 does two rounds
   and takes the working variables as two vectors, {a, b, e, f} and {c, d, g, h} (a in the top
   lane); after two rounds the old {a, b, e, f} is exactly the new {c, d, g, h}, so the two
   vectors simply swap roles between the calls. */
static inline SHA_NI void fourRounds(__m128i *abef, __m128i *cdgh, __m128i words, int i) {
    __m128i wk = _mm_add_epi32(words, _mm_load_si128((const __m128i *)(roundConstants + 4 * i)));
    *cdgh = _mm_sha256rnds2_epu32(*cdgh, *abef, wk);
    /* The instruction reads only the low two words: bring the high two down. */
    *abef = _mm_sha256rnds2_epu32(*abef, *cdgh, _mm_shuffle_epi32(wk, 0x0e));
}

SHA_NI void graphimport_sha256_compress_blocks(uint32_t *state, const void *blocks, size_t blockCount) {
    /* Vectors are named by their lanes from the top one down, as Intel names them. state is
       a to h in memory order, so it loads as {d, c, b, a} {h, g, f, e}; the instructions want
       {a, b, e, f} {c, d, g, h}. */
    __m128i dcba = _mm_loadu_si128((const __m128i *)state);
    __m128i hgfe = _mm_loadu_si128((const __m128i *)(state + 4));
    __m128i cdab = _mm_shuffle_epi32(dcba, 0xb1);
    __m128i efgh = _mm_shuffle_epi32(hgfe, 0x1b);
    __m128i abef = _mm_alignr_epi8(cdab, efgh, 8);
    __m128i cdgh = _mm_blend_epi16(efgh, cdab, 0xf0);

    for (size_t n = 0; n < blockCount; n++) {
        const uint8_t *block = (const uint8_t *)blocks + 64 * n;
        __m128i abefBefore = abef, cdghBefore = cdgh;

        __m128i w0 = loadWords(block, 0);
        __m128i w1 = loadWords(block, 1);
        __m128i w2 = loadWords(block, 2);
        __m128i w3 = loadWords(block, 3);
        fourRounds(&abef, &cdgh, w0, 0);
        fourRounds(&abef, &cdgh, w1, 1);
        fourRounds(&abef, &cdgh, w2, 2);
        fourRounds(&abef, &cdgh, w3, 3);
        /* Rounds 16 to 63: the four vectors roll, each replaced by the words 16 further on. */
        for (int i = 4; i < 16; i += 4) {
            w0 = nextWords(w0, w1, w2, w3);
            fourRounds(&abef, &cdgh, w0, i);
            w1 = nextWords(w1, w2, w3, w0);
            fourRounds(&abef, &cdgh, w1, i + 1);
            w2 = nextWords(w2, w3, w0, w1);
            fourRounds(&abef, &cdgh, w2, i + 2);
            w3 = nextWords(w3, w0, w1, w2);
            fourRounds(&abef, &cdgh, w3, i + 3);
        }

        /* FIPS 180-4, 6.2.2 step 4: add the block's starting values. */
        abef = _mm_add_epi32(abef, abefBefore);
        cdgh = _mm_add_epi32(cdgh, cdghBefore);
    }

    /* Back to memory order, {d, c, b, a} {h, g, f, e}. */
    __m128i feba = _mm_shuffle_epi32(abef, 0x1b);
    __m128i dchg = _mm_shuffle_epi32(cdgh, 0xb1);
    _mm_storeu_si128((__m128i *)state, _mm_blend_epi16(feba, dchg, 0xf0));
    _mm_storeu_si128((__m128i *)(state + 4), _mm_alignr_epi8(dchg, feba, 8));
}

#else

/* No SHA instructions known here: GraphImport's Swift rounds do all the work. */
int graphimport_sha256_accelerated(void) {
    return 0;
}

/* Never called (the check above says 0); defined so the declaration links everywhere. */
void graphimport_sha256_compress_blocks(uint32_t *state, const void *blocks, size_t blockCount) {
    (void)state;
    (void)blocks;
    (void)blockCount;
    __builtin_trap();
}

#endif
