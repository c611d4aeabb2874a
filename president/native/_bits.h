/* president/native/_bits.h: counting and finding set bits of 64-bit masks without a loop or the
 * processor's popcount instruction (the extensions are built for any x86-64 or other CPU),
 * shared by president/native/_playout.c and president/native/_vector.c. Call bits_setup() once from the
 * module's init. */
#ifndef PRESIDENT_BITS_H
#define PRESIDENT_BITS_H

#include <stdint.h>

#if defined(__GNUC__)
#define BITS_MAYBE_UNUSED __attribute__((unused))
#else
#define BITS_MAYBE_UNUSED
#endif

#define ONES8 0x0101010101010101ULL

/* NIB_BITS[x]: bits set in the nibble x (a rank's suits in a card mask) */
static BITS_MAYBE_UNUSED const unsigned char NIB_BITS[16] = {0, 1, 1, 2, 1, 2, 2, 3,
                                                             1, 2, 2, 3, 2, 3, 3, 4};

/* SEL8[m][i]: the position of the i-th (from 0) set bit of the byte m */
static unsigned char SEL8[256][8];

static void bits_setup(void) {
    int m, b, i;
    for (m = 0; m < 256; m++)
        for (b = 0, i = 0; b < 8; b++)
            if ((m >> b) & 1) SEL8[m][i++] = (unsigned char)b;
}

/* the byte-wise running sums of x's set bits (byte j: bits set in bytes 0..j); the top byte
 * is the number of bits set in x */
static inline uint64_t byte_sums(uint64_t x) {
    uint64_t s = x - ((x >> 1) & 0x5555555555555555ULL);
    s = (s & 0x3333333333333333ULL) + ((s >> 2) & 0x3333333333333333ULL);
    s = (s + (s >> 4)) & 0x0F0F0F0F0F0F0F0FULL;
    return s * ONES8;
}

/* bits set in x */
static inline BITS_MAYBE_UNUSED int bit_count(uint64_t x) { return (int)(byte_sums(x) >> 56); }

/* the position of the i-th (from 0) set bit of x, given sums = byte_sums(x), i < bits set */
static inline BITS_MAYBE_UNUSED int select_bit(uint64_t x, uint64_t sums, int i) {
    /* bytes whose running sum is at most i: each such byte lies wholly before the bit */
    uint64_t le = ((((uint64_t)i * ONES8) | 0x8080808080808080ULL) - sums) & 0x8080808080808080ULL;
    int byte = (int)(((le >> 7) * ONES8) >> 56);
    int before = (int)(((sums << 8) >> (8 * byte)) & 0xFF);
    return 8 * byte + SEL8[(x >> (8 * byte)) & 0xFF][i - before];
}

#endif
