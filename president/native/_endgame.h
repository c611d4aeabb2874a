/* president/native/_endgame.h: the exact two-player endgame solver of president/players/endgame.py
 * in C. Included by president/native/_playout.c after its FastDeal state (St, the RState of
 * _rules.h, whose r_legal lists the legal actions and r_apply takes one) and before its Python
 * glue (deal_load is declared here and defined there); not a header of its own.
 *
 * The Python code is the reference; this file restates, statement for statement:
 *   - eg_ordered   endgame._ordered (a play that empties the hand, whole sets from the
 *                  lowest, broken sets from the lowest, a pass; ties in legal order);
 *   - eg_sure      endgame._sure;
 *   - eg_key       endgame._key, packed into two 64-bit words (equal words exactly when the
 *                  Python tuples are equal);
 *   - eg_wins      endgame._wins: the same depth-first order, the same cut, one state of the
 *                  budget per state not in the memo (so a limit stops the search at the same
 *                  state as in Python), the CPU clock read when the states left are a
 *                  multiple of 256;
 *   - eg_after     endgame._wins_after.
 * The memo is an open-addressing hash table that doubles when half full. The search runs
 * without the GIL. tests/test_endgame_compiled.py checks the answers, the winning actions,
 * the choices and the states searched against the Python solver.
 *
 * Actions are ints as in fastsim: PASS = -1, a play = rank * 4 + count - 1.
 */
#ifndef PRESIDENT_ENDGAME_H
#define PRESIDENT_ENDGAME_H

#include <time.h>

#define EG_NO_LIMIT ((int64_t)1 << 62)  /* endgame._budget's "no limit" */
#define EG_USED ((uint64_t)1 << 63)     /* an occupied memo slot */
#define EG_WIN ((uint64_t)1 << 62)      /* its answer: the solving seat wins */
#define EG_STOPPED (-1)                 /* the budget ran out (TooBig) */
#define EG_NOMEM (-2)                   /* the memo could not grow */

typedef struct {
    uint64_t k0, k1;  /* the key; k1 also holds EG_USED and EG_WIN */
} EgSlot;

typedef struct {
    EgSlot *slots;
    size_t mask, used;   /* capacity - 1 (a power of two), occupied slots */
    int64_t left;        /* _Budget.left */
    int timed;           /* whether there is a CPU deadline */
    double deadline;     /* _Budget.deadline, in CLOCK_PROCESS_CPUTIME_ID seconds */
    int me, lo, hi;      /* the solving seat; the two seats holding cards, lower first */
} Eg;

static double eg_cpu(void) {
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* endgame._ordered: the legal actions sorted (stably) by (0, 0) for a play that empties the
 * hand, (1, rank) for a whole set, (2, rank) for a broken one, (3, 0) for a pass. Legal
 * actions come by rank, so each group in legal order is already sorted by rank. */
static int eg_ordered(const St *d, int *out) {
    int acts[56], n = r_legal(d, acts), m = 0, i;
    const int *hand = d->hands[d->to_act];
    int left = d->ncards[d->to_act];
    for (i = 0; i < n; i++)
        if (acts[i] >= 0 && (acts[i] & 3) + 1 == left) out[m++] = acts[i];
    for (i = 0; i < n; i++) {
        int a = acts[i], k = (a & 3) + 1;
        if (a >= 0 && k != left && k == hand[a >> 2]) out[m++] = a;
    }
    for (i = 0; i < n; i++) {
        int a = acts[i], k = (a & 3) + 1;
        if (a >= 0 && k != left && k != hand[a >> 2]) out[m++] = a;
    }
    for (i = 0; i < n; i++)
        if (acts[i] < 0) out[m++] = acts[i];
    return m;
}

/* endgame._sure: the seat to act, on an empty pile, has at most one whole set the other
 * live seat could beat (four of a kind under last_of_rank_clears never can). */
static int eg_sure(const St *d) {
    int seat = d->to_act, s, r, k, loose = 0;
    int best[5] = {-1, -1, -1, -1, -1};
    const int *opp = NULL, *mine = d->hands[seat];
    for (s = 0; s < d->n; s++)
        if (s != seat && d->ncards[s]) { opp = d->hands[s]; break; }
    for (r = 0; r < 13; r++)
        for (k = 1; k <= opp[r]; k++) best[k] = r;
    for (r = 0; r < 13; r++) {
        k = mine[r];
        if (!k || (k == 4 && r_lor(d))) continue;
        if (r_beats(best[k], r, d->strict, d->reversed)) {
            if (++loose > 1) return 0;
        }
    }
    return 1;
}

/* endgame._key, packed: k0 holds the first 12 entries of the rank pattern (5 bits each,
 * values 1..24, zero after the last), k1 the 13th and the rest of the tuple. */
static void eg_key(const Eg *e, const St *d, uint64_t *k0, uint64_t *k1) {
    const int *a = d->hands[e->lo], *b = d->hands[e->hi];
    uint64_t w0 = 0, w1 = 0;
    int r, i = 0, at = 0, top = d->top, j;
    for (r = 0; r < 13; r++) {
        int x = a[r], y = b[r];
        if (x || y) {
            uint64_t v = (uint64_t)(5 * x + y);
            if (i < 12) w0 |= v << (5 * i);
            else w1 = v;
            i++;
            if (r < top) at += 2;
            else if (r == top) at += 1;
        }
    }
    w1 |= (uint64_t)at << 5;
    w1 |= (uint64_t)d->to_act << 10;
    w1 |= (uint64_t)d->need << 13;
    w1 |= (uint64_t)(r_lor(d) ? d->same : 0) << 16;
    w1 |= (uint64_t)(d->last + 1) << 19;
    w1 |= (uint64_t)d->passes << 23;
    w1 |= (uint64_t)d->passed << 27;
    w1 |= (uint64_t)d->rl_len << 34;
    for (j = 0; j < d->rl_len; j++) w1 |= (uint64_t)d->rl[d->rl_head + j] << (37 + 3 * j);
    /* under twos_clear the twos are the one rank whose place is not just its order */
    if ((d->clears & R_CLEAR_TWOS) && (a[12] || b[12])) w1 |= (uint64_t)1 << 56;
    *k0 = w0;
    *k1 = w1;
}

static size_t eg_hash(uint64_t k0, uint64_t k1) {
    uint64_t h = k0 * 0x9E3779B97F4A7C15ULL ^ (k1 + 0x632BE59BD9B4E019ULL);
    h ^= h >> 31;
    h *= 0xBF58476D1CE4E5B9ULL;
    h ^= h >> 29;
    return (size_t)h;
}

/* The memo's answer for a key: 1, 0, or -1 when absent. */
static int eg_get(const Eg *e, uint64_t k0, uint64_t k1) {
    size_t i = eg_hash(k0, k1) & e->mask;
    for (;;) {
        const EgSlot *s = &e->slots[i];
        if (!(s->k1 & EG_USED)) return -1;
        if (s->k0 == k0 && (s->k1 & ~(EG_USED | EG_WIN)) == k1) return (s->k1 & EG_WIN) != 0;
        i = (i + 1) & e->mask;
    }
}

static void eg_place(EgSlot *slots, size_t mask, uint64_t k0, uint64_t k1) {
    size_t i = eg_hash(k0, k1 & ~(EG_USED | EG_WIN)) & mask;
    while (slots[i].k1 & EG_USED) i = (i + 1) & mask;
    slots[i].k0 = k0;
    slots[i].k1 = k1;
}

/* Store a key's answer (the key is not in the memo); EG_NOMEM if the memo cannot grow. */
static int eg_put(Eg *e, uint64_t k0, uint64_t k1, int win) {
    if (2 * (e->used + 1) > e->mask + 1) {
        size_t cap = 2 * (e->mask + 1), i;
        EgSlot *grown = calloc(cap, sizeof(EgSlot));
        if (grown == NULL) return EG_NOMEM;
        for (i = 0; i <= e->mask; i++)
            if (e->slots[i].k1 & EG_USED) eg_place(grown, cap - 1, e->slots[i].k0, e->slots[i].k1);
        free(e->slots);
        e->slots = grown;
        e->mask = cap - 1;
    }
    eg_place(e->slots, e->mask, k0, k1 | EG_USED | (win ? EG_WIN : 0));
    e->used++;
    return 0;
}

/* endgame._budget (``limit`` below 0: none) and the two live seats; EG_NOMEM if the memo
 * cannot be allocated. */
static int eg_start(Eg *e, const St *d, int me, int64_t limit, int timed, double seconds) {
    int s;
    e->mask = 1023;
    e->used = 0;
    e->slots = calloc(e->mask + 1, sizeof(EgSlot));
    if (e->slots == NULL) return EG_NOMEM;
    e->left = limit < 0 ? EG_NO_LIMIT : limit;
    e->timed = timed;
    e->deadline = e->timed ? eg_cpu() + seconds : 0.0;
    e->me = me;
    e->lo = e->hi = -1;
    for (s = 0; s < d->n; s++) {
        if (d->ncards[s]) {
            if (e->lo < 0) e->lo = s;
            else { e->hi = s; break; }
        }
    }
    return 0;
}

/* endgame._wins: 1 when ``me`` wins from ``d`` with best play by both, 0 when it loses,
 * EG_STOPPED when the budget ran out (TooBig), EG_NOMEM. */
static int eg_wins(Eg *e, const St *d) {
    uint64_t k0, k1;
    int got, mine, result, i, n, win;
    int acts[56];
    eg_key(e, d, &k0, &k1);
    got = eg_get(e, k0, k1);
    if (got >= 0) return got;
    e->left--;
    if (e->left < 0) return EG_STOPPED;
    if (!(e->left & 255) && e->timed && eg_cpu() > e->deadline) return EG_STOPPED;
    mine = d->to_act == e->me;
    if (!d->need && eg_sure(d)) {
        if (eg_put(e, k0, k1, mine) < 0) return EG_NOMEM;
        return mine;
    }
    result = !mine;
    n = eg_ordered(d, acts);
    for (i = 0; i < n; i++) {
        St c = *d;
        r_apply(&c, acts[i]);
        if (c.to_act < 0) {
            win = c.finish[c.nfinish - 1] != e->me;
        } else {
            win = eg_wins(e, &c);
            if (win < 0) return win;
        }
        if (win == mine) {
            result = mine;
            break;
        }
    }
    if (eg_put(e, k0, k1, result) < 0) return EG_NOMEM;
    return result;
}

/* endgame._wins_after: whether ``me`` still wins after ``action`` from ``d`` (a copy). */
static int eg_after(Eg *e, const St *d, int action) {
    St c = *d;
    r_apply(&c, action);
    if (c.to_act < 0) return c.finish[c.nfinish - 1] != e->me;
    return eg_wins(e, &c);
}

#ifndef EG_NO_GLUE  /* an includer that only searches (president/native/_vector.c) */
/* ------------------------------------------------------------------------------------------ */
/* Python glue                                                                                */

/* in _playout.c, after this header */
static int deal_load(PyObject *deal, St *d);
static PyObject *int_list(const int *in, Py_ssize_t n);

#define EG_WINS 0
#define EG_CODES 1
#define EG_CHOOSE 2

/* The three entry points: load the deal, check it as endgame._check does, search without
 * the GIL, and return (answer, states, stopped). */
static PyObject *eg_run(PyObject *deal, int kind, int me, int prefer, int has_prefer,
                        PyObject *limit_obj, PyObject *seconds_obj) {
    St d;
    Eg e;
    long long limit = -1;
    double seconds = -1.0;
    int acts[56], wins[56], n = 0, nwin = 0, rc = 0, s, live = 0, i, answer = -1;
    int64_t start;
    PyObject *ans, *out;
    if (limit_obj != Py_None) {  /* endgame._budget: None is no limit, below 0 is 0 */
        int overflow;
        limit = PyLong_AsLongLongAndOverflow(limit_obj, &overflow);
        if (limit == -1 && PyErr_Occurred()) return NULL;
        if (overflow > 0 || limit > EG_NO_LIMIT) limit = EG_NO_LIMIT;
        if (overflow < 0 || limit < 0) limit = 0;
    }
    if (seconds_obj != Py_None) {
        seconds = PyFloat_AsDouble(seconds_obj);
        if (seconds == -1.0 && PyErr_Occurred()) return NULL;
    }
    if (deal_load(deal, &d) < 0) return NULL;
    if (kind != EG_WINS) me = d.to_act;
    for (s = 0; s < d.n; s++) live += d.ncards[s] != 0;
    if (d.to_act < 0 || live != 2 || me < 0 || me >= d.n || !d.ncards[me]) {
        PyErr_Format(PyExc_ValueError, "an endgame solve needs a deal in play with exactly "
                     "two seats holding cards, one of them seat %d", me);
        return NULL;
    }
    if (eg_start(&e, &d, me, limit, seconds_obj != Py_None, seconds) < 0)
        return PyErr_NoMemory();
    start = e.left;
    Py_BEGIN_ALLOW_THREADS
    if (kind == EG_WINS) {
        rc = eg_wins(&e, &d);
        answer = rc;
    } else {
        n = r_legal(&d, acts);
        if (kind == EG_CHOOSE && has_prefer) {  /* prefer first, the rest in legal order */
            for (i = 0; i < n; i++) {
                if (acts[i] == prefer) {
                    for (; i > 0; i--) acts[i] = acts[i - 1];
                    acts[0] = prefer;
                    break;
                }
            }
        }
        for (i = 0; i < n; i++) {
            rc = eg_after(&e, &d, acts[i]);
            if (rc < 0) break;
            if (rc) {
                wins[nwin++] = acts[i];
                if (kind == EG_CHOOSE) break;
            }
        }
    }
    Py_END_ALLOW_THREADS
    free(e.slots);
    if (rc == EG_NOMEM) return PyErr_NoMemory();
    if (rc == EG_STOPPED) {
        ans = Py_None;
        Py_INCREF(ans);
    } else if (kind == EG_WINS) {
        ans = PyBool_FromLong(answer);
    } else if (kind == EG_CODES) {
        ans = int_list(wins, nwin);
    } else if (nwin) {
        ans = PyLong_FromLong(wins[0]);
    } else {
        ans = Py_None;
        Py_INCREF(ans);
    }
    if (ans == NULL) return NULL;
    out = Py_BuildValue("(NLO)", ans, (long long)(start - e.left),
                        rc == EG_STOPPED ? Py_True : Py_False);
    return out;
}

PyDoc_STRVAR(endgame_wins_doc,
"endgame_wins(deal, me, limit, seconds) -> (won, states, stopped)\n\n"
"endgame.solve_wins on the FastDeal ``deal`` (normal rank order): whether seat ``me`` goes\n"
"out before the other seat holding cards. ``limit``: states at most, ``seconds``: CPU\n"
"seconds at most (each None: no bound). ``states``: states searched (the budget spent);\n"
"when the budget ran out ``stopped`` is True and ``won`` None. ``deal`` is not changed.");

static PyObject *py_endgame_wins(PyObject *self, PyObject *args) {
    PyObject *deal, *limit, *seconds;
    int me;
    if (!PyArg_ParseTuple(args, "OiOO", &deal, &me, &limit, &seconds)) return NULL;
    return eg_run(deal, EG_WINS, me, 0, 0, limit, seconds);
}

PyDoc_STRVAR(endgame_winning_codes_doc,
"endgame_winning_codes(deal, limit, seconds) -> (codes, states, stopped)\n\n"
"endgame.winning_codes: the legal actions of the seat to act that win, in legal order\n"
"(None when the budget ran out); arguments and the rest as endgame_wins.");

static PyObject *py_endgame_winning_codes(PyObject *self, PyObject *args) {
    PyObject *deal, *limit, *seconds;
    if (!PyArg_ParseTuple(args, "OOO", &deal, &limit, &seconds)) return NULL;
    return eg_run(deal, EG_CODES, -1, 0, 0, limit, seconds);
}

PyDoc_STRVAR(endgame_choose_doc,
"endgame_choose(deal, prefer, limit, seconds) -> (code, states, stopped)\n\n"
"endgame.choose_code: ``prefer`` (an action int, or None) when it is legal and wins, else\n"
"the first winning action in legal order; None when every action loses or the budget ran\n"
"out; arguments and the rest as endgame_wins.");

static PyObject *py_endgame_choose(PyObject *self, PyObject *args) {
    PyObject *deal, *pref, *limit, *seconds;
    long prefer = 0;
    if (!PyArg_ParseTuple(args, "OOOO", &deal, &pref, &limit, &seconds)) return NULL;
    if (pref != Py_None) {
        prefer = PyLong_AsLong(pref);
        if (prefer == -1 && PyErr_Occurred()) return NULL;
        if (prefer < -1 || prefer > 51) pref = Py_None;  /* never legal: no preference */
    }
    return eg_run(deal, EG_CHOOSE, -1, (int)prefer, pref != Py_None, limit, seconds);
}

#endif /* EG_NO_GLUE */

#endif /* PRESIDENT_ENDGAME_H */
