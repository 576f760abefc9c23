// SPDX-License-Identifier: BSD-2-Clause
/* Corpus: CRC-32 (IEEE 802.3, reflected) computed bitwise and table-driven
 * over the same buffer; tight loops with short backward branches. */
#include "../common/rt.h"

#define POLY 0xEDB88320u
#define LEN  1024

static uint32_t table[256];
static uint8_t buf[LEN];

static uint32_t crc32_bitwise(const uint8_t *p, int n)
{
    uint32_t crc = 0xffffffffu;

    while (n--) {
        crc ^= *p++;
        for (int k = 0; k < 8; k++)
            crc = (crc & 1) ? (crc >> 1) ^ POLY : crc >> 1;
    }
    return ~crc;
}

static void crc32_make_table(void)
{
    for (uint32_t i = 0; i < 256; i++) {
        uint32_t c = i;

        for (int k = 0; k < 8; k++)
            c = (c & 1) ? (c >> 1) ^ POLY : c >> 1;
        table[i] = c;
    }
}

static uint32_t crc32_table(const uint8_t *p, int n)
{
    uint32_t crc = 0xffffffffu;

    while (n--)
        crc = table[(crc ^ *p++) & 0xff] ^ (crc >> 8);
    return ~crc;
}

int main(void)
{
    static const char check[] = "123456789";
    uint32_t seed = 42;

    crc32_make_table();
    /* The standard check value of CRC-32/ISO-HDLC. */
    if (crc32_table((const uint8_t *)check, 9) != 0xCBF43926u)
        return 1;
    for (int i = 0; i < LEN; i++)
        buf[i] = (uint8_t)rt_rand(&seed);
    if (crc32_bitwise(buf, LEN) != crc32_table(buf, LEN))
        return 2;
    return 0;
}
