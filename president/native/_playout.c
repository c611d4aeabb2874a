/* president._playout: the fast play-outs of president/players/fastsim.py in C.
 *
 * The Python code is the reference; this file restates, statement for statement:
 *   - random_playout   (the inline loop of fastsim.random_playout),
 *   - greedy_playout   (fastsim.greedy_playout over FastDeal.apply),
 *   - climbing_playout (fastsim.climbing_playout over FastDeal.apply),
 *   - FastDeal.random  (a shuffled deck dealt into counts per rank).
 * Random numbers come from the caller's random.Random: its Mersenne Twister state is read
 * with getstate(), stepped here exactly as CPython's _random module steps it (random() from
 * two 32-bit words, getrandbits(k) for k <= 32 as the top k bits of one word, shuffle by
 * rejection sampling), and written back with setstate(). So the same generator gives the
 * same draws, the same actions and the same finishing order as the Python code, and the
 * generator ends in the same state. tests/test_compiled.py checks this over every preset,
 * twist and table size. The Mersenne Twister code is in president/native/_mt.h (shared with
 * president/native/_vector.c).
 *
 * The rules those policies play by (what may follow what, what a play or a pass does, when
 * the pile clears) are not restated here: a FastDeal is the RState of president/native/_rules.h
 * and every step is its r_apply.
 *
 * Actions are ints as in fastsim: PASS = -1, a play = rank * 4 + count - 1.
 * Policies: 0 random, 1 greedy, 2 climbing.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

#include "_bits.h"
#include "_mt.h"

/* Whether a value read from Python may become a C int here: no seat, count, rank or
 * mask comes near the bound, so larger values are refused, never cut to 32 bits. */
#define FITS_INT(x) ((x) >= -(1L << 30) && (x) <= (1L << 30))

#include "_rules.h"
#include "_position.h"

/* ------------------------------------------------------------------------------------------ */
/* The state of FastDeal: the RState of _rules.h (its hands are FastDeal.hands)               */

#define MAXP R_MAXP
#define PASS R_PASS

typedef RState St;

/* actions taken, when a trace is asked for */
typedef struct {
    int *buf;
    Py_ssize_t len, cap;
} Trace;

static inline int trace_add(Trace *t, int a) {
    if (t == NULL) return 0;
    if (t->len == t->cap) {
        Py_ssize_t cap = t->cap ? 2 * t->cap : 256;
        int *b = PyMem_Realloc(t->buf, cap * sizeof(int));
        if (b == NULL) { PyErr_NoMemory(); return -1; }
        t->buf = b;
        t->cap = cap;
    }
    t->buf[t->len++] = a;
    return 0;
}

/* ------------------------------------------------------------------------------------------ */
/* Policies                                                                                   */

/* The random play-out keeps each hand as 52 bits, four a rank: rank r holds the bits
 * 4r .. 4r + k - 1 for its k cards ("at least j cards of rank r" is bit 4r + j - 1). Then
 * the i-th card in rank order and the i-th rank that can follow are both "the i-th set bit"
 * (select_bit of _bits.h, without a loop). */

/* FOLLOW[reversed][strict][need][top + 1]: the bits 4r + need - 1 of the ranks r that beat
 * ``top`` (r_beats of _rules.h), for the 52-bit hands */
static uint64_t FOLLOW[2][2][5][14];

static void follow_init(void) {
    int rev, strict, need, t, r;
    for (rev = 0; rev < 2; rev++)
        for (strict = 0; strict < 2; strict++)
            for (need = 1; need <= 4; need++)
                for (t = -1; t < 13; t++) {
                    uint64_t m = 0;
                    for (r = 0; r < 13; r++)
                        if (r_beats(r, t, strict, rev)) m |= 1ULL << (4 * r + need - 1);
                    FOLLOW[rev][strict][need][t + 1] = m;
                }
}

/* fastsim.random_playout, draw for draw: on a lead a random card of the hand (its rank, and
 * as many cards of that rank as it is the lowest of), on a pile a random legal play or the
 * pass; the plays and passes are _rules.h's. Compiled once per passing mode and clearing
 * rules, so that neither is tested in the loop. */
static inline __attribute__((always_inline))
int play_random_k(St *deal, MT *restrict mt, Trace *tr, const int mode, const unsigned clears,
                  const int reversal) {
    uint64_t cards[MAXP];
    /* the play-out runs on a copy of the deal in this frame, written back at the end: no
     * pointer leaves the loop, so the compiler keeps the pile's fields in registers */
    St local = *deal, *restrict d = &local;
    const uint64_t (*follow)[14] = FOLLOW[d->reversed][d->strict];
    int s, n = d->n, rc = 0;
    if (d->to_act < 0) return 0;
    for (s = 0; s < n; s++) {
        uint64_t u = 0;
        int r;
        for (r = 0; r < 13; r++) u |= (uint64_t)((1U << d->hands[s][r]) - 1) << (4 * r);
        cards[s] = u;
    }
    for (;;) {
        int seat = d->to_act, need = d->need, rank, count, i, pos;
        if (need == 0) {
            uint64_t u = cards[seat];
            i = d->ncards[seat] > 1 ? (int)(mt_random(mt) * d->ncards[seat]) : 0;
            pos = select_bit(u, byte_sums(u), i);
            rank = pos >> 2;
            count = (pos & 3) + 1;
        } else {
            uint64_t avail = cards[seat] & follow[need][d->top + 1];
            uint64_t sums = byte_sums(avail);
            int nopts = (int)(sums >> 56);
            i = nopts ? (int)(mt_random(mt) * (nopts + 1)) : 0;
            if (i == nopts) {  /* pass */
                if (trace_add(tr, PASS) < 0) { rc = -1; break; }
                r_pass_k(d, seat, mode);
                continue;
            }
            rank = select_bit(avail, sums, i) >> 2;
            count = need;
        }
        if (trace_add(tr, rank * 4 + count - 1) < 0) { rc = -1; break; }
        /* the bits 4 * rank + k - count .. 4 * rank + k - 1 go */
        cards[seat] &= ~((((uint64_t)1 << count) - 1) << (4 * rank + d->hands[seat][rank] - count));
        if (r_take_k(d, seat, rank, count, mode, clears, reversal) == R_ENDED) break;
        if (count == 4 && reversal) follow = FOLLOW[d->reversed][d->strict];
    }
    *deal = local;
    return rc;
}

/* FN(ARGS..., mode, clears, reversal) with the options of the deal d as constants: one
 * compiled copy of a play-out per passing mode, with no clearing rule or last_of_rank_clears,
 * so that its loop tests none of them; any other options (reversal, which president.native
 * leaves to Python, or clearing rules to come) in one copy that reads them from d. */
#define BY_OPTIONS(d, FN, ...)                                                                 \
    ((d)->reversal || ((d)->clears != 0 && (d)->clears != R_CLEAR_LAST_OF_RANK)                \
     ? FN(__VA_ARGS__, (d)->mode, (d)->clears, (d)->reversal)                                  \
     : (d)->clears == 0                                                                         \
     ? ((d)->mode == 0 ? FN(__VA_ARGS__, 0, 0, 0) : (d)->mode == 1 ? FN(__VA_ARGS__, 1, 0, 0)  \
        : FN(__VA_ARGS__, 2, 0, 0))                                                             \
     : ((d)->mode == 0 ? FN(__VA_ARGS__, 0, R_CLEAR_LAST_OF_RANK, 0)                            \
        : (d)->mode == 1 ? FN(__VA_ARGS__, 1, R_CLEAR_LAST_OF_RANK, 0)                          \
        : FN(__VA_ARGS__, 2, R_CLEAR_LAST_OF_RANK, 0)))

static int play_random(St *d, MT *mt, Trace *tr) {
    if (tr == NULL)   /* no trace (the batches): a copy without its tests */
        return BY_OPTIONS(d, play_random_k, d, mt, (Trace *)NULL);
    return BY_OPTIONS(d, play_random_k, d, mt, tr);
}

static int lowest_or_random_lead(St *d, MT *mt, double epsilon) {
    int *hand = d->hands[d->to_act], r;
    if (mt_random(mt) < epsilon) {
        int ranks[13], m = 0;
        for (r = 0; r < 13; r++) if (hand[r]) ranks[m++] = r;
        r = ranks[(int)(mt_random(mt) * m)];
    } else {
        r = 0;
        while (!hand[r]) r++;
    }
    return r * 4 + hand[r] - 1;
}

/* fastsim.greedy_playout */
static int play_greedy(St *d, MT *mt, double epsilon, Trace *tr) {
    for (;;) {
        int seat = d->to_act, need, r, act;
        int *hand;
        if (seat < 0) return 0;
        hand = d->hands[seat];
        need = d->need;
        if (need == 0) {
            act = lowest_or_random_lead(d, mt, epsilon);
        } else {
            int hi;
            r_follow(d->top, d->strict, d->reversed, &r, &hi);
            act = PASS;
            while (r < hi) {
                int k = hand[r];
                if (k == need) {
                    if (r < 12 || d->ncards[seat] == need || d->ncards[seat] - hand[12] == 0 ||
                        mt_random(mt) < epsilon)
                        act = r * 4 + need - 1;
                    break;
                }
                r++;
            }
        }
        if (trace_add(tr, act) < 0) return -1;
        r_apply(d, act);
    }
}

/* fastsim.climbing_playout */
static int play_climbing(St *d, MT *mt, double epsilon, Trace *tr) {
    int n = d->n;
    for (;;) {
        int seat = d->to_act, need, r, act, start, broken;
        int *hand;
        if (seat < 0) return 0;
        hand = d->hands[seat];
        need = d->need;
        if (need == 0) {
            act = lowest_or_random_lead(d, mt, epsilon);
        } else {
            int hi;
            r_follow(d->top, d->strict, d->reversed, &start, &hi);
            act = PASS;
            broken = -1;
            for (r = start; r < 12 && r < hi; r++) {
                int k = hand[r];
                if (k == need) { act = r * 4 + need - 1; break; }
                if (k > need && broken < 0) broken = r;
            }
            if (act == PASS) {
                if (broken >= 0) {
                    act = broken * 4 + need - 1;
                } else if (start <= 12 && 12 < hi && hand[12] >= need) {  /* a two beats it */
                    int mine = d->ncards[seat];
                    if (mine == need || mine - hand[12] == 0) {
                        act = 48 + need - 1;
                    } else {
                        int held = 0, least = 99, s;
                        for (r = 0; r < 12; r++) if (hand[r]) held++;
                        for (s = 0; s < n; s++)
                            if (s != seat && d->ncards[s] && d->ncards[s] < least)
                                least = d->ncards[s];
                        if (held <= 1 || least <= 2) act = 48 + need - 1;
                    }
                }
            }
        }
        if (trace_add(tr, act) < 0) return -1;
        r_apply(d, act);
    }
}

static int run_policy(St *d, MT *mt, int policy, double epsilon, Trace *tr) {
    switch (policy) {
    case 0: return play_random(d, mt, tr);
    case 1: return play_greedy(d, mt, epsilon, tr);
    default: return play_climbing(d, mt, epsilon, tr);
    }
}

/* FastDeal.random: a shuffled deck (list of ranks i >> 2) dealt from ``leader`` */
static void deal_random(St *d, MT *mt, int leader) {
    int deck[52], i, seat = leader, n = d->n;
    for (i = 0; i < 52; i++) deck[i] = i >> 2;
    mt_shuffle(mt, deck, 52);
    memset(d->hands, 0, sizeof d->hands);
    for (i = 0; i < n; i++) d->ncards[i] = 52 / n + ((i - leader + n) % n < 52 % n);
    for (i = 0; i < 52; i++) {
        d->hands[seat][deck[i]]++;
        if (++seat == n) seat = 0;
    }
    r_start(d, leader);
}

/* The intermediate player's choice and play-out, the expert's style likelihoods */
#include "_intermediate.h"
#include "_endgame.h"

/* ------------------------------------------------------------------------------------------ */
/* Python glue                                                                                */

static int get_int(PyObject *obj, const char *name, int *out) {
    PyObject *v = PyObject_GetAttrString(obj, name);
    long x;
    if (v == NULL) return -1;
    x = PyLong_AsLong(v);
    Py_DECREF(v);
    if (x == -1 && PyErr_Occurred()) return -1;
    if (!FITS_INT(x)) {
        PyErr_Format(PyExc_ValueError, "the deal's %s (%ld) is out of range", name, x);
        return -1;
    }
    *out = (int)x;
    return 0;
}

static int set_int(PyObject *obj, const char *name, long x) {
    PyObject *v = PyLong_FromLong(x);
    int rc;
    if (v == NULL) return -1;
    rc = PyObject_SetAttrString(obj, name, v);
    Py_DECREF(v);
    return rc;
}

/* Item i of a list of n items as a C long; -1 with an error set. An item that is not an int
 * runs Python code (its __index__), which may change the list: its size is checked, and the
 * item is held while that code runs. */
static int list_long(PyObject *list, Py_ssize_t i, Py_ssize_t n, const char *what, long *out) {
    PyObject *item;
    if (PyList_GET_SIZE(list) != n) {
        PyErr_Format(PyExc_ValueError, "%s changed while it was read", what);
        return -1;
    }
    item = PyList_GET_ITEM(list, i);
    Py_INCREF(item);
    *out = PyLong_AsLong(item);
    Py_DECREF(item);
    return *out == -1 && PyErr_Occurred() ? -1 : 0;
}

/* n ints of a list attribute into out[] */
static int get_ints(PyObject *list, int *out, Py_ssize_t n, const char *what) {
    Py_ssize_t i;
    if (!PyList_Check(list) || PyList_GET_SIZE(list) != n) {
        PyErr_Format(PyExc_ValueError, "%s must be a list of %zd ints", what, n);
        return -1;
    }
    for (i = 0; i < n; i++) {
        long x;
        if (list_long(list, i, n, what, &x) < 0) return -1;
        if (!FITS_INT(x)) {
            PyErr_Format(PyExc_ValueError, "%s holds %ld, out of range", what, x);
            return -1;
        }
        out[i] = (int)x;
    }
    return 0;
}

/* out[] into the items of a list, in place */
static int put_ints(PyObject *list, const int *in, Py_ssize_t n) {
    Py_ssize_t i;
    for (i = 0; i < n; i++) {
        PyObject *v = PyLong_FromLong(in[i]);
        if (v == NULL) return -1;
        if (PyList_SetItem(list, i, v) < 0) return -1;
    }
    return 0;
}

static PyObject *int_list(const int *in, Py_ssize_t n) {
    PyObject *out = PyList_New(n);
    Py_ssize_t i;
    if (out == NULL) return NULL;
    for (i = 0; i < n; i++) {
        PyObject *v = PyLong_FromLong(in[i]);
        if (v == NULL) { Py_DECREF(out); return NULL; }
        PyList_SET_ITEM(out, i, v);
    }
    return out;
}

/* Read a FastDeal into *d. */
static int deal_load(PyObject *deal, St *d) {
    PyObject *hands = NULL, *ncards = NULL, *rl = NULL, *finish = NULL;
    int s, rc = -1;
    Py_ssize_t k;
    if (get_int(deal, "players", &d->n) < 0 || get_int(deal, "to_act", &d->to_act) < 0 ||
        get_int(deal, "need", &d->need) < 0 || get_int(deal, "top", &d->top) < 0 ||
        get_int(deal, "same", &d->same) < 0 || get_int(deal, "last", &d->last) < 0 ||
        get_int(deal, "passes", &d->passes) < 0)
        return -1;
    {
        int passed, strict, mode, clears, reversal, reversed;
        if (get_int(deal, "passed", &passed) < 0 || get_int(deal, "strict", &strict) < 0 ||
            get_int(deal, "mode", &mode) < 0 || get_int(deal, "clears", &clears) < 0 ||
            get_int(deal, "reversal", &reversal) < 0 || get_int(deal, "reversed", &reversed) < 0)
            return -1;
        d->passed = (unsigned)passed;
        d->strict = strict != 0;
        d->mode = mode;
        if (!r_clears_known(clears)) {
            PyErr_Format(PyExc_ValueError, "clears = %d: the compiled play-outs know the "
                         "clearing rules of the bits %u", clears, R_CLEARS_KNOWN);
            return -1;
        }
        d->clears = (unsigned)clears;
        d->reversal = reversal != 0;
        d->reversed = reversed != 0;
    }
    if (d->n < 2 || d->n > MAXP) {
        PyErr_Format(PyExc_ValueError, "%d players: the compiled play-outs take 2 to %d",
                     d->n, MAXP);
        return -1;
    }
    r_options(d, d->n, d->strict, d->mode, d->clears, d->reversal);
    hands = PyObject_GetAttrString(deal, "hands");
    ncards = PyObject_GetAttrString(deal, "ncards");
    rl = PyObject_GetAttrString(deal, "round_left");
    finish = PyObject_GetAttrString(deal, "finish");
    if (!hands || !ncards || !rl || !finish) goto done;
    if (!PyList_Check(hands) || PyList_GET_SIZE(hands) != d->n) {
        PyErr_SetString(PyExc_ValueError, "hands must be a list of one list per seat");
        goto done;
    }
    Py_SETREF(hands, PyList_AsTuple(hands));   /* held whatever the hands' items' code does */
    if (hands == NULL) goto done;
    for (s = 0; s < d->n; s++)
        if (get_ints(PyTuple_GET_ITEM(hands, s), d->hands[s], 13, "a hand") < 0) goto done;
    if (get_ints(ncards, d->ncards, d->n, "ncards") < 0) goto done;
    if (!PyList_Check(rl) || PyList_GET_SIZE(rl) > d->n ||
        !PyList_Check(finish) || PyList_GET_SIZE(finish) > d->n) {
        PyErr_SetString(PyExc_ValueError, "round_left and finish must be lists of seats");
        goto done;
    }
    d->rl_head = 0;
    d->rl_len = (int)PyList_GET_SIZE(rl);
    if (get_ints(rl, d->rl, d->rl_len, "round_left") < 0) goto done;
    d->nfinish = (int)PyList_GET_SIZE(finish);
    if (get_ints(finish, d->finish, d->nfinish, "finish") < 0) goto done;
    /* the C code trusts these, so out-of-range values are refused here */
    for (k = 0; k < d->rl_len; k++)
        if (d->rl[k] < 0 || d->rl[k] >= d->n) {
            PyErr_SetString(PyExc_ValueError, "round_left holds a seat that does not exist");
            goto done;
        }
    for (k = 0; k < d->nfinish; k++)
        if (d->finish[k] < 0 || d->finish[k] >= d->n) {
            PyErr_SetString(PyExc_ValueError, "finish holds a seat that does not exist");
            goto done;
        }
    {   /* each seat once in finish; while the deal goes on, finish holds exactly the seats
           out of cards (so it cannot outgrow n, and a seat to find always exists) and at
           least two seats hold cards */
        unsigned seen = 0, empty = 0;
        int holding = 0;
        for (k = 0; k < d->nfinish; k++) {
            if ((seen >> d->finish[k]) & 1) {
                PyErr_SetString(PyExc_ValueError, "finish repeats a seat");
                goto done;
            }
            seen |= 1u << d->finish[k];
        }
        for (s = 0; s < d->n; s++) {
            if (d->ncards[s]) holding++;
            else empty |= 1u << s;
        }
        if (d->to_act >= 0 && (seen != empty || holding < 2)) {
            PyErr_SetString(PyExc_ValueError, "finish must list exactly the seats out of cards, "
                            "and at least two seats must hold cards while the deal goes on");
            goto done;
        }
    }
    if (d->passes < 0 || d->passes > d->n || d->same < 0 || d->same > 4
            || d->passed >= (1u << d->n)) {
        PyErr_SetString(PyExc_ValueError, "the deal's passes, passed or same are out of range");
        goto done;
    }
    for (s = 0; s < d->n; s++) {
        int r, sum = 0;
        for (r = 0; r < 13; r++) {
            if (d->hands[s][r] < 0 || d->hands[s][r] > 4) {
                PyErr_Format(PyExc_ValueError, "hand of seat %d holds %d cards of rank %d",
                             s, d->hands[s][r], r);
                goto done;
            }
            sum += d->hands[s][r];
        }
        if (sum != d->ncards[s]) {
            PyErr_Format(PyExc_ValueError, "seat %d: ncards %d but the hand holds %d",
                         s, d->ncards[s], sum);
            goto done;
        }
    }
    /* ranges first: the seat to act is read below */
    if (d->to_act < -1 || d->to_act >= d->n || d->last < -1 || d->last >= d->n
            || d->mode < 0 || d->mode > 2
            || (d->to_act >= 0 && (d->need < 0 || d->need > 4 || d->top < -1 || d->top > 12))) {
        PyErr_SetString(PyExc_ValueError, "the deal's state is out of range");
        goto done;
    }
    if (d->to_act >= 0 && !d->ncards[d->to_act]) {
        PyErr_SetString(PyExc_ValueError, "the seat to act holds no cards");
        goto done;
    }
    if (d->need && (d->last < 0 || d->top < 0)) {
        PyErr_SetString(PyExc_ValueError, "a pile without a latest play");
        goto done;
    }
    rc = 0;
done:
    Py_XDECREF(hands); Py_XDECREF(ncards); Py_XDECREF(rl); Py_XDECREF(finish);
    return rc;
}

/* Write *d back into the FastDeal (hands, ncards and finish in place). */
static int deal_store(PyObject *deal, const St *d, Py_ssize_t old_finish) {
    PyObject *hands = NULL, *ncards = NULL, *finish = NULL, *rl = NULL;
    int s, rc = -1;
    hands = PyObject_GetAttrString(deal, "hands");
    ncards = PyObject_GetAttrString(deal, "ncards");
    finish = PyObject_GetAttrString(deal, "finish");
    if (!hands || !ncards || !finish) goto done;
    if (!PyList_Check(hands) || PyList_GET_SIZE(hands) != d->n) {   /* changed since the load */
        PyErr_SetString(PyExc_ValueError, "hands must be a list of one list per seat");
        goto done;
    }
    for (s = 0; s < d->n; s++)
        if (put_ints(PyList_GET_ITEM(hands, s), d->hands[s], 13) < 0) goto done;
    if (put_ints(ncards, d->ncards, d->n) < 0) goto done;
    for (s = (int)old_finish; s < d->nfinish; s++) {
        PyObject *v = PyLong_FromLong(d->finish[s]);
        int e;
        if (v == NULL) goto done;
        e = PyList_Append(finish, v);
        Py_DECREF(v);
        if (e < 0) goto done;
    }
    rl = int_list(d->rl + d->rl_head, d->rl_len);
    if (rl == NULL || PyObject_SetAttrString(deal, "round_left", rl) < 0) goto done;
    if (set_int(deal, "to_act", d->to_act) < 0 || set_int(deal, "need", d->need) < 0 ||
        set_int(deal, "top", d->top) < 0 || set_int(deal, "same", d->same) < 0 ||
        set_int(deal, "last", d->last) < 0 || set_int(deal, "passes", d->passes) < 0 ||
        set_int(deal, "passed", (long)d->passed) < 0)
        goto done;
    if (d->reversal && PyObject_SetAttrString(deal, "reversed", d->reversed ? Py_True : Py_False) < 0)
        goto done;
    rc = 0;
done:
    Py_XDECREF(hands); Py_XDECREF(ncards); Py_XDECREF(finish); Py_XDECREF(rl);
    return rc;
}

static PyObject *trace_list(Trace *t) {
    return int_list(t->buf, t->len);
}

/* A play-out's answer: ``deal.finish``, or ``(deal.finish, actions)`` when a trace was
 * asked for; frees the trace's buffer either way. */
static PyObject *finish_result(PyObject *deal, int want_trace, Trace *tr) {
    PyObject *finish = PyObject_GetAttrString(deal, "finish"), *acts;
    if (finish == NULL || !want_trace) {
        PyMem_Free(tr->buf);
        return finish;
    }
    acts = trace_list(tr);
    PyMem_Free(tr->buf);
    if (acts == NULL) { Py_DECREF(finish); return NULL; }
    return Py_BuildValue("(NN)", finish, acts);
}

PyDoc_STRVAR(playout_doc,
"playout(deal, rng, policy, epsilon, trace) -> finish\n\n"
"Play the FastDeal ``deal`` out in place with ``policy`` (0 random, 1 greedy, 2 climbing),\n"
"drawing from the random.Random ``rng`` exactly as fastsim does, and leave ``rng`` in the\n"
"state the Python code would. Returns ``deal.finish``; with ``trace`` true returns\n"
"``(deal.finish, actions)``.");

/* A play-out run on a deal already read (``d``): what it plays and its arguments. */
typedef int (*PlayFn)(St *d, MT *mt, const void *args, Trace *tr);

/* Read the generator ``rng``, play ``d`` out with ``play``, write the generator and the
 * deal back, and give the result (finish, or (finish, actions) with ``want_trace``): the
 * glue of playout() and mixed_playout(). */
static PyObject *play_loaded(PyObject *deal, PyObject *rng, St *d, PlayFn play,
                             const void *args, int want_trace) {
    PyObject *gauss = NULL;
    MT mt;
    Trace tr = {NULL, 0, 0};
    Py_ssize_t old_finish;
    if (mt_load(rng, &mt, &gauss) < 0) return NULL;
    old_finish = d->nfinish;
    if (play(d, &mt, args, want_trace ? &tr : NULL) < 0) {
        Py_XDECREF(gauss);
        PyMem_Free(tr.buf);
        return NULL;
    }
    if (mt_store(rng, &mt, gauss) < 0 || deal_store(deal, d, old_finish) < 0) {
        PyMem_Free(tr.buf);
        return NULL;
    }
    return finish_result(deal, want_trace, &tr);
}

typedef struct {
    int policy;
    double epsilon;
} PolicyArgs;

static int play_policy(St *d, MT *mt, const void *args, Trace *tr) {
    const PolicyArgs *a = (const PolicyArgs *)args;
    return run_policy(d, mt, a->policy, a->epsilon, tr);
}

static PyObject *py_playout(PyObject *self, PyObject *args) {
    PyObject *deal, *rng;
    int want_trace;
    PolicyArgs a;
    St d;
    if (!PyArg_ParseTuple(args, "OOidp", &deal, &rng, &a.policy, &a.epsilon, &want_trace))
        return NULL;
    if (deal_load(deal, &d) < 0) return NULL;
    return play_loaded(deal, rng, &d, play_policy, &a, want_trace);
}

PyDoc_STRVAR(deals_doc,
"deals(players, strict, mode, clears, leader, count, rng, policy, epsilon) -> list\n\n"
"``count`` whole deals, each dealt as FastDeal.random(rules, rng, leader) and played out\n"
"with ``policy`` from the same generator; returns the finishing orders, one list of\n"
"``players`` seats per deal.");

static PyObject *py_deals(PyObject *self, PyObject *args) {
    int n, strict, mode, clears, leader, policy;
    Py_ssize_t count, i;
    double epsilon;
    PyObject *rng, *gauss = NULL, *out;
    MT mt;
    St d;
    unsigned char *buf;
    if (!PyArg_ParseTuple(args, "iiiiinOid", &n, &strict, &mode, &clears, &leader, &count, &rng,
                          &policy, &epsilon))
        return NULL;
    if (n < 2 || n > MAXP || leader < 0 || leader >= n || count < 0 || mode < 0 || mode > 2
            || count > (PY_SSIZE_T_MAX - 1) / MAXP / 2 || !r_clears_known(clears)) {
        PyErr_SetString(PyExc_ValueError, "players 2-7, a leader seat, a count of deals from 0 "
                        "to what memory holds, mode 0-2, clears of the bits CLEARS_KNOWN");
        return NULL;
    }
    buf = PyMem_Malloc(count * n + 1);
    if (buf == NULL) return PyErr_NoMemory();
    if (mt_load(rng, &mt, &gauss) < 0) { PyMem_Free(buf); return NULL; }
    r_options(&d, n, strict, mode, (unsigned)clears, 0);
    Py_BEGIN_ALLOW_THREADS
    for (i = 0; i < count; i++) {
        deal_random(&d, &mt, leader);
        run_policy(&d, &mt, policy, epsilon, NULL);  /* no trace: cannot fail */
        {
            int s;
            for (s = 0; s < n; s++) buf[i * n + s] = (unsigned char)d.finish[s];
        }
    }
    Py_END_ALLOW_THREADS
    if (mt_store(rng, &mt, gauss) < 0) { PyMem_Free(buf); return NULL; }
    /* one finishing order (a list of seats) per deal */
    out = PyList_New(count);
    for (i = 0; out != NULL && i < count; i++) {
        PyObject *order = PyList_New(n);
        int s;
        if (order == NULL) { Py_CLEAR(out); break; }
        for (s = 0; s < n; s++) PyList_SET_ITEM(order, s, PyLong_FromLong(buf[i * n + s]));
        PyList_SET_ITEM(out, i, order);
    }
    PyMem_Free(buf);
    return out;
}

PyDoc_STRVAR(deal_hands_doc,
"deal_hands(players, dealer, seed) -> list[int]\n\n"
"president.deal.deal_hands for a whole-number seed 0 <= seed < 2**64: random.Random(seed)\n"
"shuffles the 52 card indexes, which are dealt one at a time clockwise from the seat left\n"
"of dealer. Returns a card mask per seat. players 2 to 7, 0 <= dealer < players.");

static PyObject *py_deal_hands(PyObject *self, PyObject *args) {
    int n, dealer, i, seat, deck[52];
    PyObject *seed_obj, *out;
    unsigned long long seed;
    uint64_t h[MAXP];
    MT mt;
    if (!PyArg_ParseTuple(args, "iiO!", &n, &dealer, &PyLong_Type, &seed_obj)) return NULL;
    if (n < 2 || n > MAXP || dealer < 0 || dealer >= n) {
        PyErr_SetString(PyExc_ValueError, "players 2-7 and a dealer seat 0 <= dealer < players");
        return NULL;
    }
    seed = PyLong_AsUnsignedLongLong(seed_obj);   /* OverflowError: negative or >= 2**64 */
    if (seed == (unsigned long long)-1 && PyErr_Occurred()) return NULL;
    mt_seed_u64(&mt, (uint64_t)seed);
    for (i = 0; i < 52; i++) deck[i] = i;
    mt_shuffle(&mt, deck, 52);
    memset(h, 0, sizeof h);
    seat = dealer + 1 == n ? 0 : dealer + 1;
    for (i = 0; i < 52; i++) {
        h[seat] |= (uint64_t)1 << deck[i];
        seat = seat + 1 == n ? 0 : seat + 1;
    }
    out = PyList_New(n);
    for (i = 0; out != NULL && i < n; i++) {
        PyObject *v = PyLong_FromUnsignedLongLong(h[i]);
        if (v == NULL) { Py_CLEAR(out); break; }
        PyList_SET_ITEM(out, i, v);
    }
    return out;
}

PyDoc_STRVAR(list_plays_doc,
"list_plays(table, hand, start, stop, tail) -> list\n\n"
"The loop of president.deal.Deal.legal_actions, compiled: the cards of hand (a card mask) of\n"
"ranks start to stop - 1, two ranks (an 8-bit chunk b) at a time from r = start up; for each\n"
"chunk the plays of table[r][b], in order; then tail unless it is None. table is\n"
"actions.PAIR_ALL or PAIR_BY_COUNT[k] (13 tuples of 256 tuples of plays).");

static PyObject *py_list_plays(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    PyObject *table, *tail, *out, *chunks[7];
    unsigned long long hand, h;
    long rank, stop, r;
    Py_ssize_t total = 0, i, j, k = 0, m = 0;
    if (nargs != 5) {
        PyErr_SetString(PyExc_TypeError, "list_plays takes table, hand, start, stop and tail");
        return NULL;
    }
    table = args[0];
    tail = args[4];
    if (!PyTuple_Check(table) || PyTuple_GET_SIZE(table) != 13) {
        PyErr_SetString(PyExc_TypeError, "table must be a tuple of 13 rows of 256 tuples");
        return NULL;
    }
    hand = PyLong_AsUnsignedLongLong(args[1]);
    if (hand == (unsigned long long)-1 && PyErr_Occurred()) return NULL;
    rank = PyLong_AsLong(args[2]);
    if (rank == -1 && PyErr_Occurred()) return NULL;
    stop = PyLong_AsLong(args[3]);
    if (stop == -1 && PyErr_Occurred()) return NULL;
    if (rank < 0 || stop > 13 || rank > stop || (hand >> 52) != 0) {
        PyErr_SetString(PyExc_ValueError, "0 <= start <= stop <= 13, and hand a mask of the 52 cards");
        return NULL;
    }
    h = (hand >> (4 * rank)) & ((1ULL << (4 * (stop - rank))) - 1);
    for (r = rank; h; h >>= 8, r += 2) {
        PyObject *row;
        if (!(h & 255)) continue;
        row = PyTuple_GET_ITEM(table, r);
        if (!PyTuple_Check(row) || PyTuple_GET_SIZE(row) != 256) {
            PyErr_SetString(PyExc_TypeError, "table must be a tuple of 13 rows of 256 tuples");
            return NULL;
        }
        chunks[k] = PyTuple_GET_ITEM(row, (Py_ssize_t)(h & 255));
        if (!PyTuple_Check(chunks[k])) {
            PyErr_SetString(PyExc_TypeError, "each entry of the table must be a tuple of plays");
            return NULL;
        }
        total += PyTuple_GET_SIZE(chunks[k]);
        k++;
    }
    out = PyList_New(total + (tail != Py_None));
    if (out == NULL) return NULL;
    for (i = 0; i < k; i++) {
        Py_ssize_t n = PyTuple_GET_SIZE(chunks[i]);
        for (j = 0; j < n; j++) {
            PyObject *play = PyTuple_GET_ITEM(chunks[i], j);
            Py_INCREF(play);
            PyList_SET_ITEM(out, m++, play);
        }
    }
    if (tail != Py_None) {
        Py_INCREF(tail);
        PyList_SET_ITEM(out, m, tail);
    }
    return out;
}

/* Cards of each rank in all hands together must be 0..4 (im_choice indexes by them). */
static int check_rank_totals(const St *d) {
    int r, s;
    for (r = 0; r < 13; r++) {
        int t = 0;
        for (s = 0; s < d->n; s++) t += d->hands[s][r];
        if (t > 4) {
            PyErr_Format(PyExc_ValueError, "the hands hold %d cards of rank %d", t, r);
            return -1;
        }
    }
    return 0;
}

PyDoc_STRVAR(intermediate_playout_doc,
"intermediate_playout(deal, trace) -> finish\n\n"
"Play the FastDeal ``deal`` out in place with every seat choosing as\n"
"playout_policies.intermediate_playout(deal, endgame_limit=0) does (normal rank order;\n"
"deterministic, no generator). Returns ``deal.finish``; with ``trace`` true returns\n"
"``(deal.finish, actions)``.");

static PyObject *py_intermediate_playout(PyObject *self, PyObject *args) {
    PyObject *deal;
    int want_trace;
    St d;
    Trace tr = {NULL, 0, 0};
    Py_ssize_t old_finish;
    if (!PyArg_ParseTuple(args, "Op", &deal, &want_trace)) return NULL;
    if (deal_load(deal, &d) < 0 || check_rank_totals(&d) < 0) return NULL;
    old_finish = d.nfinish;
    if (play_intermediate(&d, want_trace ? &tr : NULL) < 0 ||
        deal_store(deal, &d, old_finish) < 0) {
        PyMem_Free(tr.buf);
        return NULL;
    }
    return finish_result(deal, want_trace, &tr);
}

PyDoc_STRVAR(intermediate_choice_doc,
"intermediate_choice(deal, tot) -> action\n\n"
"The intermediate player's heuristic choice (playout_policies._heuristic_choice, normal\n"
"rank order, no endgame solve) for the seat to act of the FastDeal ``deal``; ``tot`` is\n"
"the cards per rank still in all hands (13 ints). ``deal`` is not changed.");

static PyObject *py_intermediate_choice(PyObject *self, PyObject *args) {
    PyObject *deal, *totl;
    int tot[13], r;
    St d;
    if (!PyArg_ParseTuple(args, "OO", &deal, &totl)) return NULL;
    if (deal_load(deal, &d) < 0 || get_ints(totl, tot, 13, "tot") < 0) return NULL;
    if (d.to_act < 0) {
        PyErr_SetString(PyExc_ValueError, "the deal is over: no seat to act");
        return NULL;
    }
    for (r = 0; r < 13; r++) {
        int h = tot[r] - d.hands[d.to_act][r];
        if (h < 0 || h > 4) {
            PyErr_Format(PyExc_ValueError, "tot[%d] = %d does not fit the hand to act", r,
                         tot[r]);
            return NULL;
        }
    }
    return PyLong_FromLong(im_choice(&d, tot));
}

PyDoc_STRVAR(style_likelihoods_doc,
"style_likelihoods(players, strict, mode, clears, start, leader, history, seats, noise)\n"
"    -> rows or None\n\n"
"expert.style_likelihoods' replay: ``start`` the hands at the start of the deal (one list\n"
"of 13 counts per seat), ``leader`` the seat that led, ``history`` a list of (seat,\n"
"action) pairs, ``seats`` the seats to score. Returns one [intermediate, simple, random]\n"
"log-likelihood row per seat of ``seats``, or None when one of them had a choice while\n"
"only two seats held cards (the Python choice solves that endgame). ValueError for an\n"
"action of the history that is not legal there.");

static PyObject *py_style_likelihoods(PyObject *self, PyObject *args) {
    int n, strict, mode, clears, leader, s, r, rc;
    int row_of[MAXP], seat_at[MAXP], *hist = NULL;
    double rows[3 * MAXP], noise;
    PyObject *start, *history, *seats, *out;
    Py_ssize_t nh, nseats, i, bad = -1;
    St d;
    if (!PyArg_ParseTuple(args, "iiiiOiOOd", &n, &strict, &mode, &clears, &start, &leader,
                          &history, &seats, &noise))
        return NULL;
    if (n < 2 || n > MAXP || leader < 0 || leader >= n || mode < 0 || mode > 2
            || !r_clears_known(clears)) {
        PyErr_SetString(PyExc_ValueError, "players 2-7, a leader seat, mode 0-2, clears of "
                        "the bits CLEARS_KNOWN");
        return NULL;
    }
    if (!PyList_Check(start) || PyList_GET_SIZE(start) != n || !PyList_Check(history) ||
        !PyList_Check(seats) || PyList_GET_SIZE(seats) > n) {
        PyErr_SetString(PyExc_ValueError,
                        "start: a list of one hand per seat; history, seats: lists");
        return NULL;
    }
    memset(&d, 0, sizeof d);
    r_options(&d, n, strict, mode, (unsigned)clears, 0);
    /* the lists are read from tuples of their items, held whatever the items' code does */
    start = PyList_AsTuple(start);
    if (start == NULL) return NULL;
    for (s = 0; s < n; s++) {
        if (get_ints(PyTuple_GET_ITEM(start, s), d.hands[s], 13, "a hand") < 0) {
            Py_DECREF(start);
            return NULL;
        }
        for (r = 0; r < 13; r++) {
            if (d.hands[s][r] < 0 || d.hands[s][r] > 4) {
                PyErr_Format(PyExc_ValueError, "hand of seat %d holds %d cards of rank %d",
                             s, d.hands[s][r], r);
                Py_DECREF(start);
                return NULL;
            }
            d.ncards[s] += d.hands[s][r];
        }
    }
    Py_DECREF(start);
    if (check_rank_totals(&d) < 0) return NULL;
    if (!d.ncards[leader]) {
        PyErr_SetString(PyExc_ValueError, "the leader holds no cards");
        return NULL;
    }
    r_start(&d, leader);
    for (s = 0; s < n; s++) row_of[s] = -1;
    nseats = PyList_GET_SIZE(seats);
    for (i = 0; i < nseats; i++) {
        long x;
        if (list_long(seats, i, nseats, "seats", &x) < 0) return NULL;
        if (x < 0 || x >= n) {
            PyErr_Format(PyExc_ValueError, "seat %ld does not exist", x);
            return NULL;
        }
        seat_at[i] = (int)x;
        row_of[x] = (int)i;
        rows[3 * i] = rows[3 * i + 1] = rows[3 * i + 2] = 0.0;
    }
    nh = PyList_GET_SIZE(history);
    hist = PyMem_Malloc((nh ? nh : 1) * 2 * sizeof(int));
    if (hist == NULL) return PyErr_NoMemory();
    for (i = 0; i < nh; i++) {
        PyObject *pair;
        long seat, code;
        if (PyList_GET_SIZE(history) != nh) {
            PyErr_SetString(PyExc_ValueError, "history changed while it was read");
            PyMem_Free(hist);
            return NULL;
        }
        pair = PyList_GET_ITEM(history, i);
        if (!PyTuple_Check(pair) || PyTuple_GET_SIZE(pair) != 2) {
            PyErr_SetString(PyExc_ValueError, "history must hold (seat, action) pairs");
            PyMem_Free(hist);
            return NULL;
        }
        Py_INCREF(pair);   /* a tuple: its items stay while it is held */
        seat = PyLong_AsLong(PyTuple_GET_ITEM(pair, 0));
        code = seat == -1 && PyErr_Occurred() ? 0 : PyLong_AsLong(PyTuple_GET_ITEM(pair, 1));
        Py_DECREF(pair);
        if (PyErr_Occurred()) { PyMem_Free(hist); return NULL; }
        hist[i] = (int)(seat < -1 || seat > MAXP ? -1 : seat);
        hist[nh + i] = (int)(code < -1 || code > 51 ? 99 : code);
    }
    rc = style_rows(&d, hist, hist + nh, nh, row_of, rows, noise, &bad);
    PyMem_Free(hist);
    if (rc == -2) {
        PyErr_Format(PyExc_ValueError, "history action %zd is not legal there", bad);
        return NULL;
    }
    if (rc == 1) Py_RETURN_NONE;
    out = PyList_New(nseats);
    if (out == NULL) return NULL;
    for (i = 0; i < nseats; i++) {
        /* a seat listed twice: Python's dict keeps one row, both entries show it */
        int j = row_of[seat_at[i]];   /* the seats as read above, not read again */
        PyObject *row = Py_BuildValue("[ddd]", rows[3 * j], rows[3 * j + 1], rows[3 * j + 2]);
        if (row == NULL) { Py_DECREF(out); return NULL; }
        PyList_SET_ITEM(out, i, row);
    }
    return out;
}

/* The mixed play-out (a style per seat) and its glue */
#include "_mixed.h"

static PyMethodDef methods[] = {
    {"set_direct", py_set_direct, METH_O,
     "set_direct(flag) -> bool: use the generator's memory directly (after proving the layout "
     "again) or only getstate/setstate; returns whether the direct path is on."},
    {"playout", py_playout, METH_VARARGS, playout_doc},
    {"deals", py_deals, METH_VARARGS, deals_doc},
    {"deal_hands", py_deal_hands, METH_VARARGS, deal_hands_doc},
    {"list_plays", (PyCFunction)(void (*)(void))py_list_plays, METH_FASTCALL, list_plays_doc},
    {"intermediate_playout", py_intermediate_playout, METH_VARARGS, intermediate_playout_doc},
    {"intermediate_choice", py_intermediate_choice, METH_VARARGS, intermediate_choice_doc},
    {"style_likelihoods", py_style_likelihoods, METH_VARARGS, style_likelihoods_doc},
    {"mixed_playout", py_mixed_playout, METH_VARARGS, mixed_playout_doc},
    {"endgame_wins", py_endgame_wins, METH_VARARGS, endgame_wins_doc},
    {"endgame_winning_codes", py_endgame_winning_codes, METH_VARARGS,
     endgame_winning_codes_doc},
    {"endgame_choose", py_endgame_choose, METH_VARARGS, endgame_choose_doc},
    {"_position_restore", py_position_restore, METH_VARARGS,
     "_position_restore(type, fields) -> Position: rebuilds a copied or pickled Position."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "president._playout",
    "Compiled play-outs of president.players.fastsim (use president.players.compiled).",
    -1, methods, NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__playout(void) {
    PyObject *m;
    bits_setup();
    follow_init();
    if (PyType_Ready(&PositionType) < 0) return NULL;
    m = PyModule_Create(&module);
    if (m == NULL) return NULL;
    Py_INCREF(&PositionType);
    if (PyModule_AddObject(m, "Position", (PyObject *)&PositionType) < 0) {
        Py_DECREF(&PositionType);
        Py_DECREF(m);
        return NULL;
    }
    position_restore = PyObject_GetAttrString(m, "_position_restore");
    if (position_restore == NULL) { Py_DECREF(m); return NULL; }
    /* the clearing rules stated in _rules.h, which president.native's allow-list reads */
    if (PyModule_AddIntConstant(m, "CLEARS_KNOWN", (long)R_CLEARS_KNOWN) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    mt_setup();
    return m;
}
