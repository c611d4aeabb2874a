/* president/native/_mt.h: CPython's Mersenne Twister (Modules/_randommodule.c), stepped in C draw
 * for draw, shared by president/native/_playout.c and president/native/_vector.c.
 *
 * A random.Random's state is read into an MT (mt_load: directly from the generator's memory
 * once mt_setup() has proved the layout on this interpreter, else through getstate()),
 * stepped here exactly as CPython steps it (genrand_uint32, random(), getrandbits(k),
 * _randbelow, seeding by an int), and written back (mt_store: directly, or setstate()). So
 * C code draws what the Python code would draw from the same generator and leaves it in
 * the same state.
 *
 * Everything is static: each extension that includes this header gets its own copy (and
 * its own proof of the direct layout). Call mt_setup() once from the module's init.
 */
#ifndef PRESIDENT_MT_H
#define PRESIDENT_MT_H

#include <Python.h>
#include <stdint.h>
#include <string.h>

#if defined(__GNUC__)
#define MT_MAYBE_UNUSED __attribute__((unused))
#else
#define MT_MAYBE_UNUSED
#endif


#define MT_N 624
#define MT_M 397
#define MATRIX_A 0x9908b0dfU
#define UPPER_MASK 0x80000000U
#define LOWER_MASK 0x7fffffffU

typedef struct {
    int index;
    uint32_t state[MT_N];
} MT;

static void mt_refill(MT *self) __attribute__((noinline));
static void mt_refill(MT *self) {
    static const uint32_t mag01[2] = {0x0U, MATRIX_A};
    uint32_t *mt = self->state, y;
    int kk;
    for (kk = 0; kk < MT_N - MT_M; kk++) {
        y = (mt[kk] & UPPER_MASK) | (mt[kk + 1] & LOWER_MASK);
        mt[kk] = mt[kk + MT_M] ^ (y >> 1) ^ mag01[y & 0x1U];
    }
    for (; kk < MT_N - 1; kk++) {
        y = (mt[kk] & UPPER_MASK) | (mt[kk + 1] & LOWER_MASK);
        mt[kk] = mt[kk + (MT_M - MT_N)] ^ (y >> 1) ^ mag01[y & 0x1U];
    }
    y = (mt[MT_N - 1] & UPPER_MASK) | (mt[0] & LOWER_MASK);
    mt[MT_N - 1] = mt[MT_M - 1] ^ (y >> 1) ^ mag01[y & 0x1U];
    self->index = 0;
}

/* genrand_uint32 */
static inline uint32_t mt_next(MT *self) {
    uint32_t y;
    if (self->index >= MT_N) mt_refill(self);
    y = self->state[self->index++];
    y ^= (y >> 11);
    y ^= (y << 7) & 0x9d2c5680U;
    y ^= (y << 15) & 0xefc60000U;
    y ^= (y >> 18);
    return y;
}

/* random.random(): 53 bits from two words */
static inline double mt_random(MT *self) {
    uint32_t a = mt_next(self) >> 5, b = mt_next(self) >> 6;
    return (a * 67108864.0 + b) * (1.0 / 9007199254740992.0);
}

/* random.Random._randbelow_with_getrandbits(n), 1 <= n < 2**32 */
static MT_MAYBE_UNUSED uint32_t mt_below(MT *self, uint32_t n) {
    int k;
    uint32_t r;
    if (n == 0) return 0;
    k = 32 - __builtin_clz(n);  /* n.bit_length() */
    r = mt_next(self) >> (32 - k);
    while (r >= n) r = mt_next(self) >> (32 - k);
    return r;
}

/* random.shuffle(a) for a list of len n: for i from n - 1 down to 1, swap a[i] with
 * _randbelow(i + 1). Written without a branch on _randbelow's rejections: a refused draw
 * swaps a[i] with itself and keeps i, so the draws and the result are the same. */
static MT_MAYBE_UNUSED void mt_shuffle(MT *self, int *a, int n) {
    int i = n - 1;
    while (i >= 1) {
        int shift = __builtin_clz((unsigned)(i + 1));  /* 32 - bit_length(i + 1) */
        int r = (int)(mt_next(self) >> shift);
        int ok = r <= i, j = ok ? r : i, t = a[i];
        a[i] = a[j];
        a[j] = t;
        i -= ok;
    }
}

/* init_genrand(s) of _randommodule.c */
static MT_MAYBE_UNUSED void mt_init_genrand(MT *self, uint32_t s) {
    uint32_t *mt = self->state;
    int i;
    mt[0] = s;
    for (i = 1; i < MT_N; i++) mt[i] = 1812433253U * (mt[i - 1] ^ (mt[i - 1] >> 30)) + (uint32_t)i;
    self->index = MT_N;
}

/* random.Random(seed) for ints 0 <= seed < 2**64, on m <= MT_LANES generators at once:
 * init_by_array of _randommodule.c with the seed's 32-bit words as the key, least significant
 * first, as many as its bit length needs (one for 0). Its start, init_genrand(19650218), is
 * the same for every key and is worked out once. Seeding is two serial chains of about 620
 * multiplications each; the generators' chains are independent, so stepping them side by
 * side lets the processor overlap them (a deal's two seedings are most of its cost). */
#define MT_LANES 4

static inline __attribute__((always_inline))
void mt_seed_lanes(MT **g, const uint64_t *seeds, const int m) {
    static MT base;
    static int base_ready = 0;
    uint32_t *mt[MT_LANES], term[MT_LANES][2], prev[MT_LANES];  /* prev: x[i - 1] */
    int i = 1, k, q;
    if (!base_ready) {
        mt_init_genrand(&base, 19650218U);
        base_ready = 1;
    }
    for (q = 0; q < m; q++) {
        uint32_t lo = (uint32_t)seeds[q], hi = (uint32_t)(seeds[q] >> 32);
        memcpy(g[q], &base, sizeof base);
        mt[q] = g[q]->state;
        term[q][0] = lo;                  /* key[j] + j, with j = 0, 1, 0, 1, ... */
        term[q][1] = hi ? hi + 1U : lo;   /* a one-word key keeps j = 0 */
        prev[q] = mt[q][0];
    }
    for (k = 0; k < MT_N; k++) {
        for (q = 0; q < m; q++) {
            uint32_t *x = mt[q];
            x[i] = prev[q] = (x[i] ^ ((prev[q] ^ (prev[q] >> 30)) * 1664525U)) + term[q][k & 1];
        }
        if (++i >= MT_N) {
            for (q = 0; q < m; q++) mt[q][0] = mt[q][MT_N - 1];
            i = 1;
        }
    }
    for (k = MT_N - 1; k; k--) {
        for (q = 0; q < m; q++) {
            uint32_t *x = mt[q];
            x[i] = prev[q] = (x[i] ^ ((prev[q] ^ (prev[q] >> 30)) * 1566083941U)) - (uint32_t)i;
        }
        if (++i >= MT_N) {
            for (q = 0; q < m; q++) mt[q][0] = mt[q][MT_N - 1];
            i = 1;
        }
    }
    for (q = 0; q < m; q++) mt[q][0] = 0x80000000U;
}

/* mt_seed_lanes for any m from 1 to MT_LANES (each m compiled on its own) */
static MT_MAYBE_UNUSED void mt_seed_many(MT **g, const uint64_t *seeds, int m) {
    switch (m) {
    case 1: mt_seed_lanes(g, seeds, 1); break;
    case 2: mt_seed_lanes(g, seeds, 2); break;
    case 3: mt_seed_lanes(g, seeds, 3); break;
    case MT_LANES: mt_seed_lanes(g, seeds, MT_LANES); break;
    default: break;  /* never: 1 <= m <= MT_LANES */
    }
}

/* random.Random(seed) for an int 0 <= seed < 2**64 */
static MT_MAYBE_UNUSED void mt_seed_u64(MT *self, uint64_t seed) {
    mt_seed_many(&self, &seed, 1);
}

/* The first genrand_uint32 of a generator just seeded (index == MT_N), without refilling
 * the whole state: its first word after the refill needs only state[0], [1] and [MT_M].
 * The generator is left as it was (use it for one draw and drop it). */
static MT_MAYBE_UNUSED uint32_t mt_first_word(const MT *self) {
    const uint32_t *mt = self->state;
    uint32_t y = (mt[0] & UPPER_MASK) | (mt[1] & LOWER_MASK);
    y = mt[MT_M] ^ (y >> 1) ^ ((y & 0x1U) ? MATRIX_A : 0x0U);
    y ^= (y >> 11);
    y ^= (y << 7) & 0x9d2c5680U;
    y ^= (y << 15) & 0xefc60000U;
    y ^= (y >> 18);
    return y;
}

/* getrandbits(k) for 32 < k <= 64: words from least to most significant, the last one's
 * surplus low bits dropped */
static MT_MAYBE_UNUSED uint64_t mt_bits64(MT *self, int k) {
    uint64_t lo = mt_next(self), hi = mt_next(self) >> (64 - k);
    return lo | (hi << 32);
}

/* The generator's own memory: CPython's RandomObject (Modules/_randommodule.c) starts with
 * the same index and state as MT. It is read and written directly only after the module's
 * start-up check (direct_check) has proved, on this interpreter, that this layout gives what
 * getstate() says and that a write is seen by random(); otherwise, and for any object that
 * is not a _random.Random, the state goes through getstate() and setstate(). */
typedef struct {
    PyObject_HEAD
    int index;
    uint32_t state[MT_N];
} RandomLike;

static PyTypeObject *random_type = NULL;  /* _random.Random */
static int direct = 0;                     /* the direct path is proved and on */

static int is_direct(PyObject *rng) {
    return direct && PyObject_TypeCheck(rng, random_type) &&
           Py_TYPE(rng)->tp_basicsize >= (Py_ssize_t)sizeof(RandomLike);
}

/* Read rng.getstate() = (3, (625 ints), gauss_next) into *mt; keeps gauss_next (NULL on the
 * direct path). */
static int mt_load(PyObject *rng, MT *mt, PyObject **gauss) {
    PyObject *st, *inner;
    Py_ssize_t i;
    if (is_direct(rng)) {
        const RandomLike *r = (const RandomLike *)rng;
        if (r->index < 0 || r->index > MT_N) {
            PyErr_SetString(PyExc_ValueError, "the generator's state is out of range");
            return -1;
        }
        mt->index = r->index;
        memcpy(mt->state, r->state, sizeof mt->state);
        *gauss = NULL;
        return 0;
    }
    st = PyObject_CallMethod(rng, "getstate", NULL);
    if (st == NULL) return -1;
    if (!PyTuple_Check(st) || PyTuple_GET_SIZE(st) != 3 ||
        !PyTuple_Check(PyTuple_GET_ITEM(st, 1)) ||
        PyTuple_GET_SIZE(PyTuple_GET_ITEM(st, 1)) != MT_N + 1) {
        Py_DECREF(st);
        PyErr_SetString(PyExc_TypeError,
                        "rng.getstate() is not a Mersenne Twister state of random.Random");
        return -1;
    }
    inner = PyTuple_GET_ITEM(st, 1);
    for (i = 0; i < MT_N; i++) {
        unsigned long v = PyLong_AsUnsignedLong(PyTuple_GET_ITEM(inner, i));
        if (v == (unsigned long)-1 && PyErr_Occurred()) { Py_DECREF(st); return -1; }
        mt->state[i] = (uint32_t)v;
    }
    mt->index = (int)PyLong_AsLong(PyTuple_GET_ITEM(inner, MT_N));
    if (mt->index == -1 && PyErr_Occurred()) { Py_DECREF(st); return -1; }
    if (mt->index < 0 || mt->index > MT_N) {
        Py_DECREF(st);
        PyErr_SetString(PyExc_ValueError, "the generator's state is out of range");
        return -1;
    }
    *gauss = PyTuple_GET_ITEM(st, 2);
    Py_INCREF(*gauss);
    Py_DECREF(st);
    return 0;
}

/* rng.setstate((3, (625 ints), gauss_next)); steals the reference to gauss. */
static int mt_store(PyObject *rng, const MT *mt, PyObject *gauss) {
    PyObject *inner, *st, *res;
    Py_ssize_t i;
    if (gauss == NULL) {  /* direct path */
        RandomLike *r = (RandomLike *)rng;
        r->index = mt->index;
        memcpy(r->state, mt->state, sizeof mt->state);
        return 0;
    }
    inner = PyTuple_New(MT_N + 1);
    if (inner == NULL) { Py_DECREF(gauss); return -1; }
    for (i = 0; i < MT_N; i++) {
        PyObject *v = PyLong_FromUnsignedLong(mt->state[i]);
        if (v == NULL) { Py_DECREF(inner); Py_DECREF(gauss); return -1; }
        PyTuple_SET_ITEM(inner, i, v);
    }
    {
        PyObject *v = PyLong_FromLong(mt->index);
        if (v == NULL) { Py_DECREF(inner); Py_DECREF(gauss); return -1; }
        PyTuple_SET_ITEM(inner, MT_N, v);
    }
    st = Py_BuildValue("(iNN)", 3, inner, gauss);
    if (st == NULL) return -1;
    res = PyObject_CallMethod(rng, "setstate", "(O)", st);
    Py_DECREF(st);
    if (res == NULL) return -1;
    Py_DECREF(res);
    return 0;
}

/* Prove the direct layout on this interpreter: a seeded random.Random read directly must
 * equal its getstate(), and after a direct write of another generator's state its random()
 * must equal that generator's. Any failure leaves direct = 0 (the getstate path). */
static void direct_check(void) {
    PyObject *mod = NULL, *a = NULL, *b = NULL, *st = NULL, *x = NULL, *y = NULL;
    MT via_state, via_memory;
    PyObject *gauss = NULL;
    direct = 0;
    mod = PyImport_ImportModule("random");
    if (mod == NULL) goto done;
    a = PyObject_CallMethod(mod, "Random", "(i)", 20240601);
    b = PyObject_CallMethod(mod, "Random", "(i)", 7);
    if (a == NULL || b == NULL || !PyObject_TypeCheck(a, random_type) ||
        Py_TYPE(a)->tp_basicsize < (Py_ssize_t)sizeof(RandomLike))
        goto done;
    x = PyObject_CallMethod(a, "random", NULL);  /* index away from 0 and N */
    Py_XDECREF(x);
    x = NULL;
    if (mt_load(a, &via_state, &gauss) < 0) goto done;  /* direct is 0: via getstate */
    Py_XDECREF(gauss);
    via_memory.index = ((RandomLike *)a)->index;
    memcpy(via_memory.state, ((RandomLike *)a)->state, sizeof via_memory.state);
    if (via_memory.index != via_state.index ||
        memcmp(via_memory.state, via_state.state, sizeof via_state.state))
        goto done;
    /* write b's state into a directly; then both must draw alike */
    ((RandomLike *)a)->index = ((RandomLike *)b)->index;
    memcpy(((RandomLike *)a)->state, ((RandomLike *)b)->state, sizeof via_state.state);
    x = PyObject_CallMethod(a, "random", NULL);
    y = PyObject_CallMethod(b, "random", NULL);
    if (x == NULL || y == NULL || PyFloat_AsDouble(x) != PyFloat_AsDouble(y)) goto done;
    direct = 1;
done:
    PyErr_Clear();
    Py_XDECREF(mod); Py_XDECREF(a); Py_XDECREF(b); Py_XDECREF(st);
    Py_XDECREF(x); Py_XDECREF(y);
}

/* Find _random.Random and prove the direct layout (direct_check); any failure leaves the
 * getstate()/setstate() path. Call once from the module's init. */
static void mt_setup(void) {
    PyObject *rmod = PyImport_ImportModule("_random");
    if (rmod != NULL) {
        PyObject *t = PyObject_GetAttrString(rmod, "Random");
        Py_DECREF(rmod);
        if (t != NULL && PyType_Check(t)) random_type = (PyTypeObject *)t;  /* kept */
        else Py_XDECREF(t);
    }
    PyErr_Clear();
    if (random_type != NULL) direct_check();
}

/* set_direct(flag) of both extensions: prove the layout again and use the generator's own
 * memory, or read and write it only through getstate()/setstate(); returns whether the
 * direct path is on. */
static PyObject *py_set_direct(PyObject *self, PyObject *arg) {
    int want = PyObject_IsTrue(arg);
    (void)self;
    if (want < 0) return NULL;
    if (want) direct_check();
    else direct = 0;
    return PyBool_FromLong(direct);
}

#endif /* PRESIDENT_MT_H */
