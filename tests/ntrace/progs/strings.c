// SPDX-License-Identifier: BSD-2-Clause
/* Corpus: string processing (length, compare, reverse, word count, a naive
 * substring search and a decimal formatter) plus a short UART message. */
#include "../common/rt.h"

static const char text[] =
    "the quick brown fox jumps over the lazy dog while the cat sleeps "
    "and a trace encoder counts every instruction that retires on the hart "
    "so that the decoder can follow the program flow from the binary image";

static char work[sizeof(text)];

static __attribute__((noinline)) size_t str_len(const char *s)
{
    const char *p = s;

    while (*p)
        p++;
    return (size_t)(p - s);
}

static __attribute__((noinline)) int str_cmp(const char *a, const char *b)
{
    while (*a && *a == *b) {
        a++;
        b++;
    }
    return (unsigned char)*a - (unsigned char)*b;
}

static __attribute__((noinline)) void str_reverse(char *s, size_t n)
{
    for (size_t i = 0, j = n ? n - 1 : 0; i < j; i++, j--) {
        char t = s[i];

        s[i] = s[j];
        s[j] = t;
    }
}

static __attribute__((noinline)) unsigned count_words(const char *s)
{
    unsigned n = 0;
    int in_word = 0;

    for (; *s; s++) {
        if (*s == ' ') {
            in_word = 0;
        } else if (!in_word) {
            in_word = 1;
            n++;
        }
    }
    return n;
}

static __attribute__((noinline)) unsigned count_matches(const char *hay,
                                                        const char *needle)
{
    unsigned n = 0;

    for (; *hay; hay++) {
        const char *h = hay, *k = needle;

        while (*k && *h == *k) {
            h++;
            k++;
        }
        if (!*k)
            n++;
    }
    return n;
}

static __attribute__((noinline)) char *format_uint(char *out, unsigned v)
{
    char tmp[12];
    int n = 0;

    do {
        tmp[n++] = (char)('0' + v % 10);
        v /= 10;
    } while (v);
    while (n)
        *out++ = tmp[--n];
    *out = 0;
    return out;
}

static int check_strings(void)
{
    size_t len = str_len(text);
    char msg[32];

    if (len != sizeof(text) - 1)
        return 1;
    memcpy(work, text, len + 1);
    str_reverse(work, len);
    if (str_cmp(work, text) == 0)
        return 2;
    str_reverse(work, len);
    if (str_cmp(work, text) != 0)
        return 3;
    if (count_words(text) != 38)
        return 4;
    if (count_matches(text, "the") != 7)
        return 5;
    format_uint(msg, count_words(text));
    if (str_cmp(msg, "38") != 0)
        return 6;
    return 0;
}

int main(void)
{
    for (int round = 0; round < 3; round++) {
        int rc = check_strings();

        if (rc)
            return rc;
    }
    rt_puts("strings: 38 words\n");
    return 0;
}
