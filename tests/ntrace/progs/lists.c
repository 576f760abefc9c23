// SPDX-License-Identifier: BSD-2-Clause
/* Corpus: pointer-chasing workloads: a singly linked list (build, reverse,
 * sum) and a binary search tree (insert, in-order walk, lookups). */
#include "../common/rt.h"

#define NODES 160

struct lnode {
    struct lnode *next;
    uint32_t value;
};

struct tnode {
    struct tnode *left, *right;
    uint32_t key;
};

static struct lnode lpool[NODES];
static struct tnode tpool[NODES];
static unsigned tused;

static __attribute__((noinline)) struct lnode *list_reverse(struct lnode *h)
{
    struct lnode *prev = 0;

    while (h) {
        struct lnode *next = h->next;

        h->next = prev;
        prev = h;
        h = next;
    }
    return prev;
}

static __attribute__((noinline)) uint32_t list_sum(const struct lnode *h)
{
    uint32_t s = 0;

    for (; h; h = h->next)
        s += h->value;
    return s;
}

static __attribute__((noinline)) struct tnode *tree_insert(struct tnode *t,
                                                           uint32_t key)
{
    if (!t) {
        t = &tpool[tused++];
        t->key = key;
        return t;
    }
    if (key < t->key)
        t->left = tree_insert(t->left, key);
    else if (key > t->key)
        t->right = tree_insert(t->right, key);
    return t;
}

static __attribute__((noinline)) int tree_contains(const struct tnode *t,
                                                   uint32_t key)
{
    while (t) {
        if (key == t->key)
            return 1;
        t = key < t->key ? t->left : t->right;
    }
    return 0;
}

static uint32_t last_key;
static int in_order;

static __attribute__((noinline)) void tree_walk(const struct tnode *t)
{
    if (!t)
        return;
    tree_walk(t->left);
    if (t->key < last_key)
        in_order = 0;
    last_key = t->key;
    tree_walk(t->right);
}

int main(void)
{
    struct lnode *head = 0;
    struct tnode *root = 0;
    uint32_t seed = 99, expect = 0;

    for (unsigned i = 0; i < NODES; i++) {
        lpool[i].value = rt_rand(&seed) & 0xffff;
        lpool[i].next = head;
        head = &lpool[i];
        expect += lpool[i].value;
        root = tree_insert(root, lpool[i].value);
    }
    head = list_reverse(head);
    if (head != &lpool[0] || list_sum(head) != expect)
        return 1;
    in_order = 1;
    tree_walk(root);
    if (!in_order)
        return 2;
    for (unsigned i = 0; i < NODES; i++)
        if (!tree_contains(root, lpool[i].value))
            return 3;
    if (tree_contains(root, 0x10000))
        return 4;
    return 0;
}
