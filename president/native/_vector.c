/* president._vector: the batched core under president.env.VectorEnv.
 *
 * A Core holds the play of N deals (one deal per table, the episode = "deal" case) in C
 * arrays. One call applies N action indices; another writes every table's next observation
 * (the 702 float32 numbers of president/env/encoding.py PIECES) and int8 mask (66) straight
 * into caller buffers (the buffer protocol: numpy arrays, bytearrays, ...).
 *
 * The rules of play are those of president/native/_rules.h (president/kernel.py's PlayState,
 * may_play and legal_actions, stated once in C): each table's play is an RState, and a step
 * is r_apply. The core takes the options beat (strict), passing (mode 0 re-enter, 1 sit-out,
 * 2 once-around) and the clearing rules (clears), for 3 to 7 players; which rules it may play
 * at all is decided in Python by president/native/__init__.py (the reversal twist, for one,
 * is played by VectorEnv's Python tables). Cards follow president/env/encoding.py: card index
 * rank * 4 + suit, a play of `count` cards of a rank takes the `count` lowest suits held
 * (play_for).
 *
 * Dealing is here too (Core.deal, and Core.step with its generators): it makes from the
 * table's random.Random exactly the draws president.env.table.Table.reset makes (the first
 * dealer by randrange(players), the match seed by getrandbits(63), the match generator's
 * deal seed by getrandbits(32), the shuffle of president.deal.deal_hands by a generator
 * seeded with it), stepping CPython's Mersenne Twister in C (president/native/_mt.h), so the
 * generator ends in the state the Python tables leave it in. The opening leader follows
 * first_lead as president.match.Match does for a match's first deal. Core.load still takes
 * hands chosen in Python.
 *
 * Computer players (Core.set_bots): seats played here by the random player (one draw of its
 * own generator per decision, the legal action at index int(random() * k)), the simple
 * player or the intermediate player (simple_choice and im_choice of _intermediate.h, and the
 * exact endgame search of _endgame.h once only two seats hold cards), so that a step stops
 * only at the caller's seats (president.env.VectorEnv's opponents).
 * tests/test_env_vector_opponents.py checks them against the Python players. tests/test_env_vector_compiled.py checks every output against the
 * Python VectorEnv, byte for byte, and tests/test_env_aec_compiled.py the AEC environment's.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "_bits.h"
#include "_mt.h"
#include "_rules.h"

#define MAXP R_MAXP
#define NUM_ACTIONS 66
#define PASS_ACTION 52

/* The computer players' choices, on the RState (the play-outs' St): the intermediate
 * player's heuristic choice and simple choice of _intermediate.h, the exact endgame search
 * of _endgame.h (their Python glue and trace-keeping play-outs left out). */
#define PASS R_PASS
typedef RState St;
#define IM_CHOICE_ONLY
#define EG_NO_GLUE
#include "_intermediate.h"
#include "_endgame.h"

/* What plays each seat (Core.set_bots): the caller (a learner, or a policy the Python side
 * calls: the core stops there), or a computer player played here. */
#define BOT_NONE 0
#define BOT_RANDOM 1
#define BOT_SIMPLE 2
#define BOT_INTERMEDIATE 3
#define BOT_POLICY 4
#define EG_LIMIT 4000     /* president.players.endgame.DEFAULT_LIMIT: states per endgame solve */

/* Offsets of the observation's pieces (encoding.PIECES); the glue checks them against
 * encoding.piece_slices() before using this module. */
#define OBS_SIZE 702
#define O_HAND 0
#define O_PILE 52
#define O_CLEARED 104
#define O_PLAYED 156
#define O_GIVEN 520
#define O_RECEIVED 572
#define O_TO_BEAT_RANK 624
#define O_TO_BEAT_COUNT 637
#define O_HAND_COUNTS 641
#define O_PASSED 648
#define O_FINISHED 655
#define O_TO_ACT 662
#define O_LATEST 669
#define O_SEATED 676
#define O_SCORES 683
#define O_PHASE 690
#define O_GIVE_COUNT 694
#define O_GIVE_TO 695
#define PHASE_PLAY 1
#define PHASE_MATCH_OVER 3
#define MAX_HAND 20.0


/* One table: the cards as masks (for the observation and the suits a play takes) and the
 * play of its deal as the RState of _rules.h (options, cards per rank, the pile, turns). */
typedef struct {
    uint64_t hand[MAXP];      /* card mask per seat */
    uint64_t played[MAXP];    /* cards each seat played this deal */
    uint64_t pile;            /* cards on the current pile */
    uint64_t cleared;         /* cards cleared from earlier piles */
    RState r;                 /* the play (its hands are the masks' counts per rank) */
    int loaded;               /* a deal is in play */
    int over;                 /* the deal has ended (its final state is kept for observe_seat) */
} Deal;

typedef struct {
    PyObject_HEAD
    Py_ssize_t num;
    int players, strict, mode;
    unsigned clears;          /* the clearing rules on (RState.clears) */
    double reward[MAXP];      /* reward by finishing place (0 = first) */
    double points[MAXP];      /* match points by finishing place (the scores piece at the end) */
    int lead_seat;            /* first_lead = seat:<n>, else -1 */
    uint64_t lead_bit;        /* first_lead = holder-of:<card>: that card's bit, else 0 */
    Deal *deals;
    int bot[MAXP];            /* BOT_ kind of each seat (all BOT_NONE: no computer player) */
    int any_bot;              /* some seat is not BOT_NONE: each deal draws the bots' seeds */
    MT *bot_mt;               /* num x MAXP generators of the random players, or NULL */
} CoreObject;

static inline int after(int seat, int n) { return seat + 1 == n ? 0 : seat + 1; }

/* ------------------------------------------------------------------------------------------ */
/* legality (kernel.legal_actions on the hand's counts per rank) and the table's step         */

static inline int rank_count(uint64_t hand, int rank) {
    return NIB_BITS[(hand >> (rank * 4)) & 15];
}

/* Whether the seat to act may take action index `action` (0 .. 65): a play or the pass
 * (r_may_act of _rules.h); the gives (53 ..) never, there is no exchange in a deal. */
static int is_legal(const Deal *d, long long action) {
    if (action < 0 || action >= PASS_ACTION + 1) return 0;
    return r_may_act(&d->r, action == PASS_ACTION ? R_PASS : (int)action);
}

/* MASK8[need][b]: the eight mask entries (actions 4r .. 4r + 7) of the two ranks r, r + 1
 * whose suits are the byte b of a hand (low nibble: rank r): need 0 (an empty pile) allows
 * every size from 1 to the cards held, need 1..4 only that size when enough are held */
static int8_t MASK8[5][256][8];

static void mask8_init(void) {
    int need, b, half, k;
    for (need = 0; need <= 4; need++)
        for (b = 0; b < 256; b++)
            for (half = 0; half < 2; half++) {
                int held = NIB_BITS[(b >> (4 * half)) & 15];
                for (k = 0; k < 4; k++)
                    MASK8[need][b][4 * half + k] = (int8_t)(need ? k + 1 == need && held >= need
                                                                 : k < held);
            }
}

/* kernel.legal_actions as a mask: the hand's bytes (two ranks each) through MASK8, with the
 * ranks that do not beat the pile removed first; actions 52.. are pass, then the gives */
static void write_mask(const Deal *d, int8_t *m) {
    uint64_t hand = d->hand[d->r.to_act];
    int c, need = d->r.need, lo, hi;
    if (need) {   /* only the ranks lo .. hi - 1 beat the pile (r_follow of _rules.h) */
        r_follow(d->r.top, d->r.strict, d->r.reversed, &lo, &hi);
        hand &= lo < hi ? (~(uint64_t)0 << (4 * lo)) & (((uint64_t)1 << (4 * hi)) - 1) : 0;
    }
    for (c = 0; c < 7; c++) memcpy(m + 8 * c, MASK8[need][(hand >> (8 * c)) & 255], 8);
    memset(m + 56, 0, NUM_ACTIONS - 56);  /* 52..55 are 0 already: no cards above bit 51 */
    m[PASS_ACTION] = need > 0;             /* kernel.may_pass */
}

/* the `count` lowest suits held of `rank`, as a card mask (encoding.play_for) */
static inline uint64_t lowest_suits(uint64_t hand, int rank, int count) {
    uint64_t nib = (hand >> (rank * 4)) & 15, take = 0;
    int k;
    for (k = 0; k < count; k++) {
        uint64_t low = nib & (~nib + 1);
        take |= low;
        nib ^= low;
    }
    return take << (rank * 4);
}

/* One legal action at table d; returns 1 when the deal ended (rewards then written). */
static int table_step(CoreObject *self, Deal *d, int action, float *rewards) {
    int n = self->players, seat = d->r.to_act, outcome, place;
    if (action == PASS_ACTION) {
        outcome = r_apply(&d->r, R_PASS);
    } else {
        int rank = action >> 2, count = (action & 3) + 1;
        uint64_t cards = lowest_suits(d->hand[seat], rank, count);
        d->hand[seat] ^= cards;
        d->played[seat] |= cards;
        d->pile |= cards;
        outcome = r_apply(&d->r, action);
    }
    if (outcome == R_ENDED) {
        for (place = 0; place < n; place++)
            rewards[d->r.finish[place]] = (float)self->reward[place];
        d->loaded = 0;
        d->over = 1;
        return 1;
    }
    if (outcome != R_GOES_ON) {
        d->cleared |= d->pile;
        d->pile = 0;
    }
    return 0;
}

/* ------------------------------------------------------------------------------------------ */
/* the computer players                                                                        */

/* president.players.endgame.endgame_choice for the seat to act, which holds `nacts` > 1
 * legal actions `acts` (r_legal's order) while only two seats hold cards: `prefer` when it
 * wins, else the first winning action; `prefer` too when every action loses or the solve
 * passes EG_LIMIT states (eg_run's "choose" of _endgame.h, without the Python glue). */
static int bot_endgame(const St *d, int prefer, int *acts, int nacts) {
    Eg e;
    int i, rc, got = prefer;
    if (eg_start(&e, d, d->to_act, EG_LIMIT, 0, 0.0) < 0) return prefer;
    for (i = 0; i < nacts; i++) {     /* prefer first, the rest in legal order */
        if (acts[i] == prefer) {
            for (; i > 0; i--) acts[i] = acts[i - 1];
            acts[0] = prefer;
            break;
        }
    }
    for (i = 0; i < nacts; i++) {
        rc = eg_after(&e, d, acts[i]);
        if (rc < 0) break;
        if (rc) {
            got = acts[i];
            break;
        }
    }
    free(e.slots);
    return got;
}

/* The action (play-out int: rank * 4 + count - 1, or PASS) of the computer player at the
 * seat to act of table i:
 *   random:       the legal action at index int(random() * k) of r_legal's list (k legal
 *                 actions, one draw of the seat's own generator at every decision);
 *   simple:       simple_choice (the simple player, players/simple.py);
 *   intermediate: the intermediate player (players/intermediate.py): its only legal action,
 *                 else im_choice, then, once only two seats hold cards, the endgame's
 *                 choice (bot_endgame). */
static int bot_choice(CoreObject *self, Deal *d, Py_ssize_t i) {
    const St *r = &d->r;
    int seat = r->to_act, acts[56], k, tot[13], q, s, code;
    switch (self->bot[seat]) {
    case BOT_RANDOM:
        k = r_legal(r, acts);
        return acts[(int)(mt_random(self->bot_mt + i * MAXP + seat) * k)];
    case BOT_SIMPLE:
        return simple_choice(r);
    default:   /* BOT_INTERMEDIATE */
        for (q = 0; q < 13; q++) {
            tot[q] = 0;
            for (s = 0; s < r->n; s++) tot[q] += r->hands[s][q];
        }
        code = im_choice(r, tot);
        if (r->n - r->nfinish == 2) {
            k = r_legal(r, acts);
            if (k > 1) code = bot_endgame(r, code, acts, k);
        }
        return code;
    }
}

/* Let the computer players of table i act until a seat of BOT_NONE or BOT_POLICY is to act
 * or the deal ends; returns 1 when it ended (rewards then written), else 0. */
static int play_bots(CoreObject *self, Deal *d, Py_ssize_t i, float *rewards) {
    while (d->loaded) {
        int kind = self->bot[d->r.to_act], code;
        if (kind == BOT_NONE || kind == BOT_POLICY) return 0;
        code = bot_choice(self, d, i);
        if (table_step(self, d, code < 0 ? PASS_ACTION : code, rewards)) return 1;
    }
    return 0;
}

/* ------------------------------------------------------------------------------------------ */
/* the observation (encoding.fill_observation for the acting seat, phase "play")              */

static inline void put_bits(float *o, uint64_t m) {
    while (m) {
        o[__builtin_ctzll(m)] = 1.0f;
        m &= m - 1;
    }
}

/* The observation of `seat` (encoding.observation_bytes): in play, or, once the deal is over,
 * the final state with phase match-over, nobody to act and the points (by place) as scores. */
static void write_obs_of(const CoreObject *self, const Deal *d, int seat, float *o) {
    int n = self->players, k, s, place;
    memset(o, 0, OBS_SIZE * sizeof(float));
    put_bits(o + O_HAND, d->hand[seat]);
    put_bits(o + O_PILE, d->pile);
    put_bits(o + O_CLEARED, d->cleared);
    for (k = 0; k < n; k++) {
        s = (seat + k) % n;
        put_bits(o + O_PLAYED + 52 * k, d->played[s]);
        o[O_HAND_COUNTS + k] = (float)((double)d->r.ncards[s] / MAX_HAND);
        if ((d->r.passed >> s) & 1) o[O_PASSED + k] = 1.0f;
        o[O_SEATED + k] = 1.0f;
    }
    /* given, received, give_count, give_to: zero in a one-deal episode; scores: zero until
     * the deal ends */
    if (d->pile) {
        o[O_TO_BEAT_RANK + d->r.top] = 1.0f;
        o[O_TO_BEAT_COUNT + d->r.need - 1] = 1.0f;
        o[O_LATEST + (d->r.last - seat + n) % n] = 1.0f;
    }
    for (place = 0; place < d->r.nfinish; place++)
        o[O_FINISHED + (d->r.finish[place] - seat + n) % n] = (float)((double)(place + 1) / n);
    if (d->over) {
        for (place = 0; place < n; place++)
            o[O_SCORES + (d->r.finish[place] - seat + n) % n] = (float)self->points[place];
        o[O_PHASE + PHASE_MATCH_OVER] = 1.0f;
        return;
    }
    o[O_TO_ACT + (d->r.to_act - seat + n) % n] = 1.0f;
    o[O_PHASE + PHASE_PLAY] = 1.0f;
}

/* ------------------------------------------------------------------------------------------ */
/* dealing: president.env.table.Table.reset's draws, on the table's generator                  */

/* The options of the core and the cards per rank of the masks into d->r (what the masks and
 * the core's arguments decide: load_hands and restore write them). */
static void deal_derive(const CoreObject *self, Deal *d) {
    int k, r;
    r_options(&d->r, self->players, self->strict, self->mode, self->clears, 0);
    for (k = 0; k < MAXP; k++)
        for (r = 0; r < 13; r++)
            d->r.hands[k][r] = k < self->players ? rank_count(d->hand[k], r) : 0;
}

/* A fresh deal of the hands h (card masks) with `leader` to lead. */
static void load_hands(CoreObject *self, Deal *d, const uint64_t *h, int leader) {
    int k;
    memset(d, 0, sizeof(Deal));
    for (k = 0; k < self->players; k++) {
        d->hand[k] = h[k];
        d->r.ncards[k] = bit_count(h[k]);
    }
    deal_derive(self, d);
    r_start(&d->r, leader);
    d->loaded = 1;
}

/* Deal m <= MT_LANES tables d[q], each from its own table's generator rng[q], as
 * president.env.table.Table.reset draws: the dealer, a match generator seeded from the
 * table's, the deal's shuffle generator seeded from that one's first word, a shuffle. The m
 * tables' seedings run side by side (mt_seed_many); each generator draws what it would
 * alone. */
static void deal_from(CoreObject *self, Deal **d, MT **rng, int m) {
    int n = self->players, dealer[MT_LANES], q, seat, i, deck[52], leader;
    uint64_t seeds[MT_LANES] = {0}, h[MAXP];
    MT subs[MT_LANES], *sub[MT_LANES];
    for (q = 0; q < m; q++) {
        dealer[q] = (int)mt_below(rng[q], (uint32_t)n);  /* rng.randrange(n) */
        seeds[q] = mt_bits64(rng[q], 63);                /* Match(seed=rng.getrandbits(63)) */
        sub[q] = &subs[q];
        if (self->any_bot) {  /* then each computer player's seed (env.single.make_bots) */
            for (seat = 0; seat < n; seat++) {
                if (self->bot[seat] != BOT_NONE) {
                    uint64_t bits = mt_bits64(rng[q], 63);
                    if (self->bot[seat] == BOT_RANDOM)
                        mt_seed_u64(self->bot_mt + (d[q] - self->deals) * MAXP + seat, bits);
                }
            }
        }
    }
    mt_seed_many(sub, seeds, m);
    for (q = 0; q < m; q++) seeds[q] = mt_first_word(sub[q]);  /* deal_hands(.., getrandbits(32)) */
    mt_seed_many(sub, seeds, m);
    for (q = 0; q < m; q++) {
        for (i = 0; i < 52; i++) deck[i] = i;
        mt_shuffle(sub[q], deck, 52);
        memset(h, 0, sizeof h);
        seat = after(dealer[q], n);
        for (i = 0; i < 52; i++) {
            h[seat] |= (uint64_t)1 << deck[i];
            seat = after(seat, n);
        }
        if (self->lead_seat >= 0) {
            leader = self->lead_seat;
        } else {
            leader = after(dealer[q], n);
            if (self->lead_bit) {
                for (seat = 0; seat < n; seat++) {
                    if (h[seat] & self->lead_bit) {
                        leader = seat;
                        break;
                    }
                }
            }
        }
        load_hands(self, d[q], h, leader);
        if (self->any_bot) {  /* no deal ends before every seat has acted: nothing to reward */
            float scratch[MAXP];
            play_bots(self, d[q], d[q] - self->deals, scratch);
        }
    }
}

/* Deal tables d[0 .. m) (m <= MT_LANES) from their random.Random rngs[0 .. m), leaving each
 * rng as the Python draws would. On an error nothing is dealt. */
static int deal_with(CoreObject *self, Deal **d, PyObject **rngs, int m) {
    MT mts[MT_LANES], *mt[MT_LANES];
    PyObject *gauss[MT_LANES];
    int q, failed = 0;
    for (q = 0; q < m; q++) {
        gauss[q] = NULL;
        mt[q] = &mts[q];
        if (mt_load(rngs[q], mt[q], &gauss[q]) < 0) return -1;
    }
    deal_from(self, d, mt, m);
    for (q = 0; q < m; q++)
        if (mt_store(rngs[q], mt[q], gauss[q]) < 0) failed = 1;
    return failed ? -1 : 0;
}

/* ------------------------------------------------------------------------------------------ */
/* Python type                                                                                 */

static int get_buffer(PyObject *obj, Py_buffer *view, Py_ssize_t itemsize, Py_ssize_t items,
                      int writable, const char *what) {
    int flags = PyBUF_C_CONTIGUOUS | (writable ? PyBUF_WRITABLE : 0);
    if (PyObject_GetBuffer(obj, view, flags) < 0) return -1;
    if (view->itemsize != itemsize || view->len != itemsize * items) {
        PyErr_Format(PyExc_ValueError, "%s must be a C-contiguous buffer of %zd items of %zd "
                     "bytes; got %zd bytes of items of %zd", what, items, itemsize,
                     view->len, view->itemsize);
        PyBuffer_Release(view);
        return -1;
    }
    return 0;
}

static void Core_dealloc(CoreObject *self) {
    PyMem_Free(self->deals);
    PyMem_Free(self->bot_mt);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static int Core_init(CoreObject *self, PyObject *args, PyObject *kwds) {
    static char *kwlist[] = {"num_envs", "players", "strict", "mode", "clears", "rewards",
                             "lead_seat", "lead_card", "points", NULL};
    Py_ssize_t num, i, len;
    int players, strict, mode, clears, lead_seat = -1, lead_card = -1;
    PyObject *rewards, *seq, *points = Py_None;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "niiiiO|iiO", kwlist, &num, &players, &strict,
                                     &mode, &clears, &rewards, &lead_seat, &lead_card, &points))
        return -1;
    if (num < 1) {
        PyErr_SetString(PyExc_ValueError, "num_envs must be at least 1");
        return -1;
    }
    if (!r_clears_known(clears)) {
        PyErr_Format(PyExc_ValueError, "clears = %d: the core knows the clearing rules of "
                     "the bits %u", clears, R_CLEARS_KNOWN);
        return -1;
    }
    if (players < 3 || players > MAXP) {
        PyErr_SetString(PyExc_ValueError, "players must be 3 to 7");
        return -1;
    }
    if (mode < 0 || mode > 2) {
        PyErr_SetString(PyExc_ValueError, "mode must be 0 (re-enter), 1 (sit-out) or 2 (once-around)");
        return -1;
    }
    if (lead_seat < -1 || lead_seat >= players || lead_card < -1 || lead_card >= 52) {
        PyErr_SetString(PyExc_ValueError, "lead_seat must be -1 or a seat, lead_card -1 or a "
                        "card index 0 to 51");
        return -1;
    }
    memset(self->points, 0, sizeof self->points);
    if (points != Py_None) {
        seq = PySequence_Fast(points, "points must be a sequence of floats, one per place");
        if (!seq) return -1;
        if (PySequence_Fast_GET_SIZE(seq) != players) {
            Py_DECREF(seq);
            PyErr_SetString(PyExc_ValueError, "points must give one float per finishing place");
            return -1;
        }
        for (i = 0; i < players; i++) {
            double v = PyFloat_AsDouble(PySequence_Fast_GET_ITEM(seq, i));
            if (v == -1.0 && PyErr_Occurred()) {
                Py_DECREF(seq);
                return -1;
            }
            self->points[i] = v;
        }
        Py_DECREF(seq);
    }
    self->lead_seat = lead_seat;
    self->lead_bit = lead_card >= 0 ? (uint64_t)1 << lead_card : 0;
    seq = PySequence_Fast(rewards, "rewards must be a sequence of floats, one per place");
    if (!seq) return -1;
    len = PySequence_Fast_GET_SIZE(seq);
    if (len != players) {
        Py_DECREF(seq);
        PyErr_SetString(PyExc_ValueError, "rewards must give one float per finishing place");
        return -1;
    }
    for (i = 0; i < len; i++) {
        double v = PyFloat_AsDouble(PySequence_Fast_GET_ITEM(seq, i));
        if (v == -1.0 && PyErr_Occurred()) {
            Py_DECREF(seq);
            return -1;
        }
        self->reward[i] = v;
    }
    Py_DECREF(seq);
    {   /* a failed allocation leaves the core as it was (no table at all if it had none) */
        Deal *deals = PyMem_Calloc((size_t)num, sizeof(Deal));
        if (!deals) {
            PyErr_NoMemory();
            return -1;
        }
        PyMem_Free(self->deals);
        self->deals = deals;
    }
    self->num = num;
    self->players = players;
    self->strict = strict != 0;
    self->mode = mode;
    self->clears = (unsigned)clears;
    return 0;
}

PyDoc_STRVAR(load_doc,
"load(i, hands, leader)\n--\n\n"
"Start a new deal at table i: hands is a sequence of `players` card masks (ints, bit\n"
"rank * 4 + suit), disjoint and non-empty; leader is the seat that leads. Nothing is\n"
"played yet (the computer players of set_bots do not act: the seat to act is the\n"
"leader's). Raises IndexError or ValueError for a bad table, hand or seat.");

static PyObject *Core_load(CoreObject *self, PyObject *args) {
    Py_ssize_t i, k, len;
    PyObject *hands, *seq;
    int leader, n = self->players;
    uint64_t seen = 0, h[MAXP];
    Deal *d;
    if (!PyArg_ParseTuple(args, "nOi", &i, &hands, &leader)) return NULL;
    if (i < 0 || i >= self->num) {
        PyErr_SetString(PyExc_IndexError, "table index out of range");
        return NULL;
    }
    if (leader < 0 || leader >= n) {
        PyErr_SetString(PyExc_ValueError, "leader must be a seat of the table");
        return NULL;
    }
    seq = PySequence_Fast(hands, "hands must be a sequence of card masks");
    if (!seq) return NULL;
    len = PySequence_Fast_GET_SIZE(seq);
    if (len != n) {
        Py_DECREF(seq);
        PyErr_SetString(PyExc_ValueError, "hands must give one card mask per seat");
        return NULL;
    }
    for (k = 0; k < n; k++) {
        unsigned long long v = PyLong_AsUnsignedLongLong(PySequence_Fast_GET_ITEM(seq, k));
        if (v == (unsigned long long)-1 && PyErr_Occurred()) {
            Py_DECREF(seq);
            return NULL;
        }
        if (!v || (v & seen) || (v >> 52)) {
            Py_DECREF(seq);
            PyErr_SetString(PyExc_ValueError, "hands must be disjoint, non-empty masks of cards 0 to 51");
            return NULL;
        }
        seen |= v;
        h[k] = v;
    }
    Py_DECREF(seq);
    d = &self->deals[i];
    load_hands(self, d, h, leader);
    Py_RETURN_NONE;
}

PyDoc_STRVAR(deal_doc,
"deal(i, rng)\n--\n\n"
"Start a new deal at table i drawn from the random.Random rng exactly as\n"
"president.env.table.Table.reset draws it (first dealer, match seed, deal seed, shuffle),\n"
"the opening leader by the core's lead_seat / lead_card; rng is left in the state the\n"
"Python draws leave it in. Raises IndexError for a bad table, TypeError for an rng whose\n"
"getstate() is not a Mersenne Twister state.");

static PyObject *Core_deal(CoreObject *self, PyObject *args) {
    Py_ssize_t i;
    PyObject *rng;
    if (!PyArg_ParseTuple(args, "nO", &i, &rng)) return NULL;
    if (i < 0 || i >= self->num) {
        PyErr_SetString(PyExc_IndexError, "table index out of range");
        return NULL;
    }
    {
        Deal *d = &self->deals[i];
        if (deal_with(self, &d, &rng, 1) < 0) return NULL;
    }
    Py_RETURN_NONE;
}

static int all_loaded(CoreObject *self) {
    Py_ssize_t i;
    for (i = 0; i < self->num; i++) {
        if (!self->deals[i].loaded) {
            PyErr_Format(PyExc_RuntimeError, "table %zd has no deal in play; load one first", i);
            return 0;
        }
    }
    return 1;
}

/* The buffers of a step: actions (int64, m), rewards (float32, N x players) and ended (one
 * byte per table); all acquired (0) or none (-1, the error set). */
static int step_buffers(CoreObject *self, PyObject *a_obj, Py_ssize_t m, PyObject *r_obj,
                        PyObject *e_obj, Py_buffer *a, Py_buffer *r, Py_buffer *e) {
    if (get_buffer(a_obj, a, 8, m, 0, "actions") < 0) return -1;
    if (get_buffer(r_obj, r, 4, self->num * self->players, 1, "rewards") < 0) {
        PyBuffer_Release(a);
        return -1;
    }
    if (get_buffer(e_obj, e, 1, self->num, 1, "ended") < 0) {
        PyBuffer_Release(a);
        PyBuffer_Release(r);
        return -1;
    }
    return 0;
}

/* Release step_buffers' buffers and the generators' sequence; the step's result (NULL for
 * -1 with an error set). */
static PyObject *step_result(Py_buffer *a, Py_buffer *r, Py_buffer *e, PyObject *seq,
                             long result) {
    PyBuffer_Release(a);
    PyBuffer_Release(r);
    PyBuffer_Release(e);
    Py_XDECREF(seq);
    if (result == -1 && PyErr_Occurred()) return NULL;
    return PyLong_FromLong(result);
}

PyDoc_STRVAR(step_doc,
"step(actions, rewards, ended) -> int\n--\n\n"
"Take actions[i] (int64, N) at every table i for its seat to act. First every action is\n"
"checked: if table i refuses its action, nothing changes and -1 - i is returned (the\n"
"first such table). Else every table steps; rewards (float32, N x players, written in\n"
"full) gets the rewards by seat of each table whose deal ended, by place, and ended\n"
"(1 byte per table) is set to 1 there and 0 elsewhere; returns how many deals ended.\n"
"With rngs (a sequence of N random.Random), every table whose deal ended is dealt again\n"
"at once from rngs[i] (as deal(i, rngs[i])); without, such a table must be loaded or dealt\n"
"again before the next step or observe.");

static PyObject *Core_step(CoreObject *self, PyObject *args) {
    PyObject *a_obj, *r_obj, *e_obj, *rngs = Py_None, *seq = NULL;
    Py_buffer a, r, e;
    Py_ssize_t i, n = self->num;
    long long *acts;
    float *rew;
    uint8_t *ended;
    long result = 0;
    if (!PyArg_ParseTuple(args, "OOO|O", &a_obj, &r_obj, &e_obj, &rngs)) return NULL;
    if (!all_loaded(self)) return NULL;
    if (rngs != Py_None) {
        seq = PySequence_Fast(rngs, "rngs must be a sequence of random.Random, one per table");
        if (!seq) return NULL;
        if (PySequence_Fast_GET_SIZE(seq) != n) {
            Py_DECREF(seq);
            PyErr_SetString(PyExc_ValueError, "rngs must give one random.Random per table");
            return NULL;
        }
    }
    if (step_buffers(self, a_obj, n, r_obj, e_obj, &a, &r, &e) < 0) {
        Py_XDECREF(seq);
        return NULL;
    }
    acts = (long long *)a.buf;
    rew = (float *)r.buf;
    ended = (uint8_t *)e.buf;
    for (i = 0; i < n; i++) {
        if (!is_legal(&self->deals[i], acts[i])) {
            result = -1 - (long)i;
            goto done;
        }
    }
    memset(rew, 0, (size_t)r.len);
    for (i = 0; i < n; i++) {
        Deal *d = &self->deals[i];
        ended[i] = (uint8_t)table_step(self, d, (int)acts[i], rew + i * self->players);
        if (self->any_bot && !ended[i])
            ended[i] = (uint8_t)play_bots(self, d, i, rew + i * self->players);
        result += ended[i];
    }
    if (seq && result) {  /* deal the ended tables again, MT_LANES at a time */
        Deal *batch[MT_LANES];
        PyObject *rngs[MT_LANES];
        int m = 0;
        for (i = 0; i < n && result != -1; i++) {
            if (ended[i]) {
                batch[m] = &self->deals[i];
                rngs[m++] = PySequence_Fast_GET_ITEM(seq, i);
            }
            if (m == MT_LANES || (m && i == n - 1)) {
                if (deal_with(self, batch, rngs, m) < 0) result = -1;
                m = 0;
            }
        }
    }
done:
    return step_result(&a, &r, &e, seq, result);
}

PyDoc_STRVAR(set_bots_doc,
"set_bots(kinds)\n--\n\n"
"What plays each seat, one int per seat: 0 the caller (a learner), 1 random, 2 simple,\n"
"3 intermediate (the computer players played here), 4 a policy played by the caller. The\n"
"core then stops only at seats of 0 and 4: step, step_at and the deals of deal and step\n"
"let the computer players act until such a seat is to act or the deal ends. When any seat\n"
"is not 0, every deal draws one getrandbits(63) per seat that is not 0, in seat order,\n"
"after the deal's own draws (president.env.single.make_bots), and a random player's\n"
"generator is random.Random of its draw. Takes effect from the next deal; at least one\n"
"seat must be 0 or 4.");

static PyObject *Core_set_bots(CoreObject *self, PyObject *arg) {
    PyObject *seq = PySequence_Fast(arg, "kinds must be a sequence of ints, one per seat");
    int k, kinds[MAXP], stops = 0, any = 0, randoms = 0;
    if (!seq) return NULL;
    if (PySequence_Fast_GET_SIZE(seq) != self->players) {
        Py_DECREF(seq);
        PyErr_SetString(PyExc_ValueError, "kinds must give one int per seat");
        return NULL;
    }
    for (k = 0; k < self->players; k++) {
        long v = PyLong_AsLong(PySequence_Fast_GET_ITEM(seq, k));
        if (v == -1 && PyErr_Occurred()) {
            Py_DECREF(seq);
            return NULL;
        }
        if (v < BOT_NONE || v > BOT_POLICY) {
            Py_DECREF(seq);
            PyErr_SetString(PyExc_ValueError, "a kind must be 0 (caller), 1 (random), 2 "
                            "(simple), 3 (intermediate) or 4 (policy)");
            return NULL;
        }
        kinds[k] = (int)v;
        stops += v == BOT_NONE || v == BOT_POLICY;
        any |= v != BOT_NONE;
        randoms += v == BOT_RANDOM;
    }
    Py_DECREF(seq);
    if (!stops) {
        PyErr_SetString(PyExc_ValueError, "at least one seat must be played by the caller "
                        "(kind 0 or 4)");
        return NULL;
    }
    if (randoms && !self->bot_mt) {
        self->bot_mt = PyMem_Calloc((size_t)self->num * MAXP, sizeof(MT));
        if (!self->bot_mt) return PyErr_NoMemory();
    }
    memcpy(self->bot, kinds, sizeof(int) * (size_t)self->players);
    self->any_bot = any;
    Py_RETURN_NONE;
}

PyDoc_STRVAR(step_at_doc,
"step_at(index, actions, rewards, ended, rngs) -> int\n--\n\n"
"step() at some tables only: take actions[k] (int64, m) at table index[k] (int64, m,\n"
"distinct tables) for its seat to act, then let the computer players act (set_bots). All\n"
"are checked first: -1 - k for the first refused (nothing changes). rewards (float32,\n"
"N x players) and ended (1 byte per table, N) are added to, not overwritten: a table whose\n"
"deal ends gets its rewards by seat added to its row and ended set to 1. rngs: N\n"
"random.Random (every table whose deal ended is dealt again from its own) or None (such a\n"
"table must be dealt again before the next step or observe). Returns how many deals\n"
"ended.");

static PyObject *Core_step_at(CoreObject *self, PyObject *args) {
    PyObject *i_obj, *a_obj, *r_obj, *e_obj, *rngs, *seq;
    Py_buffer ix, a, r, e;
    Py_ssize_t k, m, n = self->num;
    long long *idx, *acts;
    float *rew, scratch[MAXP];
    uint8_t *ended;
    long result = 0;
    int p, np = self->players;
    if (!PyArg_ParseTuple(args, "OOOOO", &i_obj, &a_obj, &r_obj, &e_obj, &rngs)) return NULL;
    if (!all_loaded(self)) return NULL;
    seq = rngs == Py_None ? NULL
        : PySequence_Fast(rngs, "rngs must be a sequence of random.Random, one per table");
    if (rngs != Py_None && !seq) return NULL;
    if (seq && PySequence_Fast_GET_SIZE(seq) != n) {
        Py_DECREF(seq);
        PyErr_SetString(PyExc_ValueError, "rngs must give one random.Random per table");
        return NULL;
    }
    if (PyObject_GetBuffer(i_obj, &ix, PyBUF_C_CONTIGUOUS) < 0) {
        Py_XDECREF(seq);
        return NULL;
    }
    m = ix.len / 8;
    if (ix.itemsize != 8 || ix.len != 8 * m) {
        PyBuffer_Release(&ix);
        Py_XDECREF(seq);
        PyErr_SetString(PyExc_ValueError, "index must be a C-contiguous int64 buffer");
        return NULL;
    }
    if (step_buffers(self, a_obj, m, r_obj, e_obj, &a, &r, &e) < 0) {
        PyBuffer_Release(&ix);
        Py_XDECREF(seq);
        return NULL;
    }
    idx = (long long *)ix.buf;
    acts = (long long *)a.buf;
    rew = (float *)r.buf;
    ended = (uint8_t *)e.buf;
    for (k = 0; k < m; k++) {
        if (idx[k] < 0 || idx[k] >= n) {
            PyErr_SetString(PyExc_IndexError, "table index out of range");
            result = -1;
            goto done;
        }
        if (!is_legal(&self->deals[idx[k]], acts[k])) {
            result = -1 - (long)k;
            goto done;
        }
    }
    for (k = 0; k < m; k++) {
        Py_ssize_t i = (Py_ssize_t)idx[k];
        Deal *d = &self->deals[i];
        int over = table_step(self, d, (int)acts[k], scratch);
        if (!over && self->any_bot) over = play_bots(self, d, i, scratch);
        if (over) {
            PyObject *g;
            for (p = 0; p < np; p++) rew[i * np + p] += scratch[p];
            ended[i] = 1;
            result++;
            if (!seq) continue;
            g = PySequence_Fast_GET_ITEM(seq, i);
            if (deal_with(self, &d, &g, 1) < 0) {
                result = -1;
                goto done;
            }
        }
    }
done:
    PyBuffer_Release(&ix);
    return step_result(&a, &r, &e, seq, result);
}

PyDoc_STRVAR(observe_doc,
"observe(obs, masks, players)\n--\n\n"
"Write each table's observation of its seat to act (float32, N x 702), that seat's\n"
"action mask (int8, N x 66) and the seat (int64, N; seat = player in a one-deal episode).\n"
"obs may be None: then only the masks and seats are written (the step-and-mask path).");

static PyObject *Core_observe(CoreObject *self, PyObject *args) {
    PyObject *o_obj, *m_obj, *p_obj;
    Py_buffer o, m, p;
    Py_ssize_t i, n = self->num;
    int with_obs;
    if (!PyArg_ParseTuple(args, "OOO", &o_obj, &m_obj, &p_obj)) return NULL;
    if (!all_loaded(self)) return NULL;
    with_obs = o_obj != Py_None;
    if (with_obs && get_buffer(o_obj, &o, 4, n * OBS_SIZE, 1, "obs") < 0) return NULL;
    if (get_buffer(m_obj, &m, 1, n * NUM_ACTIONS, 1, "masks") < 0) {
        if (with_obs) PyBuffer_Release(&o);
        return NULL;
    }
    if (get_buffer(p_obj, &p, 8, n, 1, "players") < 0) {
        if (with_obs) PyBuffer_Release(&o);
        PyBuffer_Release(&m);
        return NULL;
    }
    for (i = 0; i < n; i++) {
        const Deal *d = &self->deals[i];
        if (with_obs) write_obs_of(self, d, d->r.to_act, (float *)o.buf + i * OBS_SIZE);
        write_mask(d, (int8_t *)m.buf + i * NUM_ACTIONS);
        ((long long *)p.buf)[i] = d->r.to_act;
    }
    if (with_obs) PyBuffer_Release(&o);
    PyBuffer_Release(&m);
    PyBuffer_Release(&p);
    Py_RETURN_NONE;
}

/* table i, checked: a deal in play or over (not never dealt) */
static Deal *table_at(CoreObject *self, Py_ssize_t i) {
    Deal *d;
    if (i < 0 || i >= self->num) {
        PyErr_SetString(PyExc_IndexError, "table index out of range");
        return NULL;
    }
    d = &self->deals[i];
    if (!d->loaded && !d->over) {
        PyErr_Format(PyExc_RuntimeError, "table %zd has no deal; deal or load one first", i);
        return NULL;
    }
    return d;
}

PyDoc_STRVAR(act_doc,
"act(i, action, mask) -> int\n--\n\n"
"Take action index `action` at table i alone for its seat to act (the AEC path). Returns\n"
"the seat to act next, with its mask written into `mask` (66 int8); -1 when the deal\n"
"ended (rewards(i) gives the rewards; mask untouched); -2 when the table refuses the\n"
"action (nothing changes). Raises RuntimeError when table i has no deal in play.");

static PyObject *Core_act(CoreObject *self, PyObject *args) {
    Py_ssize_t i;
    long long action;
    PyObject *m_obj;
    Py_buffer m;
    Deal *d;
    float scratch[MAXP];
    if (!PyArg_ParseTuple(args, "nLO", &i, &action, &m_obj)) return NULL;
    if (!(d = table_at(self, i))) return NULL;
    if (!d->loaded) {
        PyErr_Format(PyExc_RuntimeError, "table %zd: the deal is over; deal a new one", i);
        return NULL;
    }
    if (!is_legal(d, action)) return PyLong_FromLong(-2);
    if (get_buffer(m_obj, &m, 1, NUM_ACTIONS, 1, "mask") < 0) return NULL;
    if (table_step(self, d, (int)action, scratch)) {
        PyBuffer_Release(&m);
        return PyLong_FromLong(-1);
    }
    write_mask(d, (int8_t *)m.buf);
    PyBuffer_Release(&m);
    return PyLong_FromLong(d->r.to_act);
}

PyDoc_STRVAR(rewards_doc,
"rewards(i) -> list[float]\n--\n\n"
"The rewards by seat of table i's ended deal (the core's reward of each seat's finishing\n"
"place, as Python floats). Raises RuntimeError when the deal at table i is not over.");

static PyObject *Core_rewards(CoreObject *self, PyObject *args) {
    Py_ssize_t i;
    Deal *d;
    PyObject *out;
    int place, n = self->players;
    if (!PyArg_ParseTuple(args, "n", &i)) return NULL;
    if (!(d = table_at(self, i))) return NULL;
    if (!d->over) {
        PyErr_Format(PyExc_RuntimeError, "table %zd: the deal is not over", i);
        return NULL;
    }
    out = PyList_New(n);
    if (!out) return NULL;
    for (place = 0; place < n; place++) {
        PyObject *v = PyFloat_FromDouble(self->reward[place]);
        if (!v) {
            Py_DECREF(out);
            return NULL;
        }
        PyList_SET_ITEM(out, d->r.finish[place], v);
    }
    return out;
}

PyDoc_STRVAR(observe_seat_doc,
"observe_seat(i, seat, obs, mask) -> int\n--\n\n"
"Write the observation of `seat` at table i into obs (702 float32): during the play as\n"
"president.env.table.Table.observe shows it (for any seat, not only the one to act); once\n"
"the deal is over, its final state in phase match-over with the points of each place as\n"
"scores. mask (66 int8, or None) gets that seat's legal actions: zeros unless it is the\n"
"seat to act of a deal in play. Returns the seat to act, or -1 when the deal is over.");

static PyObject *Core_observe_seat(CoreObject *self, PyObject *args) {
    Py_ssize_t i;
    int seat;
    PyObject *o_obj, *m_obj;
    Py_buffer o, m;
    Deal *d;
    if (!PyArg_ParseTuple(args, "niOO", &i, &seat, &o_obj, &m_obj)) return NULL;
    if (!(d = table_at(self, i))) return NULL;
    if (seat < 0 || seat >= self->players) {
        PyErr_SetString(PyExc_ValueError, "seat must be a seat of the table");
        return NULL;
    }
    if (get_buffer(o_obj, &o, 4, OBS_SIZE, 1, "obs") < 0) return NULL;
    write_obs_of(self, d, seat, (float *)o.buf);
    PyBuffer_Release(&o);
    if (m_obj != Py_None) {
        if (get_buffer(m_obj, &m, 1, NUM_ACTIONS, 1, "mask") < 0) return NULL;
        if (d->loaded && d->r.to_act == seat) write_mask(d, (int8_t *)m.buf);
        else memset(m.buf, 0, NUM_ACTIONS);
        PyBuffer_Release(&m);
    }
    return PyLong_FromLong(d->loaded ? d->r.to_act : -1);
}

PyDoc_STRVAR(snapshot_doc,
"snapshot() -> bytes\n--\n\n"
"Every table's play state as bytes (this build's memory layout), for restore() on a Core\n"
"made with the same arguments (and set_bots): how the Python glue pickles and copies a\n"
"Core. The random players' generators follow the deals when there are any.");

static PyObject *Core_snapshot(CoreObject *self, PyObject *unused) {
    Py_ssize_t deals = self->num * (Py_ssize_t)sizeof(Deal);
    Py_ssize_t bots = self->bot_mt ? self->num * MAXP * (Py_ssize_t)sizeof(MT) : 0;
    PyObject *out = PyBytes_FromStringAndSize(NULL, deals + bots);
    if (!out) return NULL;
    memcpy(PyBytes_AS_STRING(out), self->deals, (size_t)deals);
    if (bots) memcpy(PyBytes_AS_STRING(out) + deals, self->bot_mt, (size_t)bots);
    return out;
}

/* whether a Deal read from bytes is one the core could have made (indices in range) */
static int deal_sane(const Deal *d, int n, int mode) {
    int k;
    if (d->r.to_act < -1 || d->r.to_act >= n || d->r.last < -1 || d->r.last >= n) return 0;
    if (d->r.nfinish < 0 || d->r.nfinish > n || d->r.rl_head < 0 || d->r.rl_len < 0 ||
        d->r.rl_head + d->r.rl_len > MAXP || d->r.need < 0 || d->r.need > 4 || d->r.top < -1 ||
        d->r.top > 12)
        return 0;
    if (d->loaded && (d->r.to_act < 0 || d->over)) return 0;
    if (d->r.passes < 0 || d->r.passes > n || d->r.same < 0 || d->r.same > 4
        || d->r.passed >= (1u << n))
        return 0;
    {   /* each seat at most once in finish; while a deal is in play, finish holds exactly
           the seats out of cards, at least two seats hold cards and the seat to act does;
           once it is over every seat is in finish */
        unsigned seen = 0, empty = 0;
        int holding = 0;
        for (k = 0; k < d->r.nfinish; k++) {
            if (d->r.finish[k] < 0 || d->r.finish[k] >= n || ((seen >> d->r.finish[k]) & 1)) return 0;
            seen |= 1u << d->r.finish[k];
        }
        for (k = 0; k < n; k++) {
            if ((d->hand[k] >> 52) || d->r.ncards[k] != bit_count(d->hand[k])) return 0;
            if (d->r.ncards[k]) holding++;
            else empty |= 1u << k;
        }
        if (d->loaded && (seen != empty || holding < 2 || !d->r.ncards[d->r.to_act])) return 0;
        if (d->over && d->r.nfinish != n) return 0;
    }
    for (k = d->r.rl_head; k < d->r.rl_head + d->r.rl_len; k++)
        if (d->r.rl[k] < 0 || d->r.rl[k] >= n) return 0;
    if (d->loaded && mode == 2 && d->r.need > 0 && d->r.rl_len < 1) return 0;   /* once-around */
    return 1;
}

PyDoc_STRVAR(restore_doc,
"restore(data)\n--\n\n"
"Put back the tables' play state from snapshot() bytes of a Core made with the same\n"
"arguments. Raises ValueError for bytes of another size or out-of-range contents.");

static PyObject *Core_restore(CoreObject *self, PyObject *arg) {
    Py_buffer b;
    Py_ssize_t i;
    Py_ssize_t bots = self->bot_mt ? self->num * MAXP * (Py_ssize_t)sizeof(MT) : 0;
    if (PyObject_GetBuffer(arg, &b, PyBUF_C_CONTIGUOUS) < 0) return NULL;
    if (b.len != self->num * (Py_ssize_t)sizeof(Deal) + bots) {
        PyBuffer_Release(&b);
        PyErr_SetString(PyExc_ValueError, "the snapshot is of another number of tables or "
                        "another build");
        return NULL;
    }
    for (i = 0; i < self->num; i++) {
        Deal d;
        memcpy(&d, (const char *)b.buf + i * (Py_ssize_t)sizeof(Deal), sizeof(Deal));
        if (!deal_sane(&d, self->players, self->mode)) {
            PyBuffer_Release(&b);
            PyErr_Format(PyExc_ValueError, "the snapshot's table %zd is not a state of this core", i);
            return NULL;
        }
    }
    for (i = 0; i < self->num * MAXP && bots; i++) {  /* a generator's index in range */
        int index;
        memcpy(&index, (const char *)b.buf + (b.len - bots) + i * (Py_ssize_t)sizeof(MT)
               + offsetof(MT, index), sizeof index);
        if (index < 0 || index > MT_N) {
            PyBuffer_Release(&b);
            PyErr_SetString(PyExc_ValueError, "the snapshot's random players are not "
                            "generators of this core");
            return NULL;
        }
    }
    memcpy(self->deals, b.buf, (size_t)(b.len - bots));
    if (bots) memcpy(self->bot_mt, (const char *)b.buf + (b.len - bots), (size_t)bots);
    PyBuffer_Release(&b);
    for (i = 0; i < self->num; i++) deal_derive(self, &self->deals[i]);
    Py_RETURN_NONE;
}

PyDoc_STRVAR(state_doc,
"state(i) -> dict\n--\n\n"
"Table i's play state (for tests): hands, played, pile, cleared, ncards, finish, to_act,\n"
"need, top, same, last, passes, passed, round_left.");

static PyObject *Core_state(CoreObject *self, PyObject *args) {
    Py_ssize_t i;
    int k, n = self->players;
    const Deal *d;
    PyObject *hands, *played, *ncards, *finish, *rl, *out;
    if (!PyArg_ParseTuple(args, "n", &i)) return NULL;
    if (i < 0 || i >= self->num) {
        PyErr_SetString(PyExc_IndexError, "table index out of range");
        return NULL;
    }
    d = &self->deals[i];
    hands = PyList_New(n);
    played = PyList_New(n);
    ncards = PyList_New(n);
    finish = PyList_New(d->r.nfinish);
    rl = PyList_New(d->r.rl_len);
    if (!hands || !played || !ncards || !finish || !rl) goto fail;
    for (k = 0; k < n; k++) {
        PyList_SET_ITEM(hands, k, PyLong_FromUnsignedLongLong(d->hand[k]));
        PyList_SET_ITEM(played, k, PyLong_FromUnsignedLongLong(d->played[k]));
        PyList_SET_ITEM(ncards, k, PyLong_FromLong(d->r.ncards[k]));
    }
    for (k = 0; k < d->r.nfinish; k++) PyList_SET_ITEM(finish, k, PyLong_FromLong(d->r.finish[k]));
    for (k = 0; k < d->r.rl_len; k++)
        PyList_SET_ITEM(rl, k, PyLong_FromLong(d->r.rl[d->r.rl_head + k]));
    out = Py_BuildValue("{sNsNsKsKsNsNsisisisisisisisN}", "hands", hands, "played", played,
                        "pile", (unsigned long long)d->pile, "cleared",
                        (unsigned long long)d->cleared, "ncards", ncards, "finish", finish,
                        "to_act", d->r.to_act, "need", d->r.need, "top", d->r.top, "same", d->r.same,
                        "last", d->r.last, "passes", d->r.passes, "passed", d->r.passed,
                        "round_left", rl);
    return out;
fail:
    Py_XDECREF(hands);
    Py_XDECREF(played);
    Py_XDECREF(ncards);
    Py_XDECREF(finish);
    Py_XDECREF(rl);
    return NULL;
}

static PyMethodDef Core_methods[] = {
    {"load", (PyCFunction)Core_load, METH_VARARGS, load_doc},
    {"deal", (PyCFunction)Core_deal, METH_VARARGS, deal_doc},
    {"act", (PyCFunction)Core_act, METH_VARARGS, act_doc},
    {"rewards", (PyCFunction)Core_rewards, METH_VARARGS, rewards_doc},
    {"observe_seat", (PyCFunction)Core_observe_seat, METH_VARARGS, observe_seat_doc},
    {"step", (PyCFunction)Core_step, METH_VARARGS, step_doc},
    {"step_at", (PyCFunction)Core_step_at, METH_VARARGS, step_at_doc},
    {"set_bots", (PyCFunction)Core_set_bots, METH_O, set_bots_doc},
    {"observe", (PyCFunction)Core_observe, METH_VARARGS, observe_doc},
    {"state", (PyCFunction)Core_state, METH_VARARGS, state_doc},
    {"snapshot", (PyCFunction)Core_snapshot, METH_NOARGS, snapshot_doc},
    {"restore", (PyCFunction)Core_restore, METH_O, restore_doc},
    {NULL, NULL, 0, NULL},
};

PyDoc_STRVAR(core_doc,
"Core(num_envs, players, strict, mode, clears, rewards, lead_seat=-1, lead_card=-1, points=None)\n--\n\n"
"N one-deal tables of `players` seats under beat (strict: 1 higher, 0 equal-or-higher),\n"
"passing (mode: 0 re-enter, 1 sit-out, 2 once-around) and the clearing rules (clears:\n"
"kernel.clears_of's bit mask);\n"
"rewards: the reward of each finishing place, first place first. For deal(): lead_seat\n"
"(first_lead = seat:<n>) or lead_card (holder-of:<card>, the card index), -1 for none\n"
"(left-of-dealer). points: the match points of each place (the scores an observation\n"
"shows once a deal is over; None for zeros).");

static PyTypeObject CoreType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "president._vector.Core",
    .tp_basicsize = sizeof(CoreObject),
    .tp_dealloc = (destructor)Core_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = core_doc,
    .tp_methods = Core_methods,
    .tp_init = (initproc)Core_init,
    .tp_new = PyType_GenericNew,
};

static PyObject *py_direct(PyObject *self, PyObject *unused) {
    return PyBool_FromLong(direct);
}

/* sample(masks, u, out): for each row i of masks (int8, N x NUM_ACTIONS), out[i] (int64) is
   the floor(u[i] * k)-th nonzero entry of the row in index order (0-based), k the row's count
   of nonzero entries: a uniformly random legal action for a uniform u[i] in [0, 1). The
   statement in numpy is president.env.vector._sample_numpy. Returns -1 - i for the first row
   with no legal action (the rows before it are written), else 0. */
static PyObject *py_sample(PyObject *self, PyObject *args) {
    PyObject *m_obj, *u_obj, *o_obj;
    Py_buffer m, u, o;
    Py_ssize_t i, n;
    long result = 0;
    if (!PyArg_ParseTuple(args, "OOO", &m_obj, &u_obj, &o_obj)) return NULL;
    {   /* PRESIDENT_PURE=1 asks for the Python statement: None, nothing written (read here,
           at each call, as os.environ's changes reach the C environment) */
        const char *pure = getenv("PRESIDENT_PURE");
        if (pure != NULL && strcmp(pure, "1") == 0) Py_RETURN_NONE;
    }
    if (PyObject_GetBuffer(u_obj, &u, PyBUF_C_CONTIGUOUS) < 0) return NULL;
    n = u.len / 8;
    if (u.itemsize != 8 || u.len != 8 * n) {
        PyBuffer_Release(&u);
        PyErr_SetString(PyExc_ValueError, "u must be a C-contiguous float64 buffer");
        return NULL;
    }
    if (get_buffer(m_obj, &m, 1, n * NUM_ACTIONS, 0, "masks") < 0) {
        PyBuffer_Release(&u);
        return NULL;
    }
    if (get_buffer(o_obj, &o, 8, n, 1, "out") < 0) {
        PyBuffer_Release(&u);
        PyBuffer_Release(&m);
        return NULL;
    }
    {
        const unsigned char *rows = (const unsigned char *)m.buf;
        const double *us = (const double *)u.buf;
        long long *out = (long long *)o.buf;
        for (i = 0; i < n; i++) {
            /* the row as bits: actions 0..63 in lo, 64 and 65 in hi */
            const unsigned char *row = rows + i * NUM_ACTIONS;
            uint64_t lo = 0, hi = (uint64_t)(row[64] != 0) | ((uint64_t)(row[65] != 0) << 1);
            uint64_t sums;
            int b, k, k_lo, pick;
            for (b = 0; b < 8; b++) {
                uint64_t x, nz;
                memcpy(&x, row + 8 * b, 8);
                /* 1 in each byte that is nonzero, then the 8 bytes' bits gathered into one */
                nz = ((((x & 0x7F7F7F7F7F7F7F7FULL) + 0x7F7F7F7F7F7F7F7FULL) | x)
                      & 0x8080808080808080ULL) >> 7;
                lo |= ((nz * 0x0102040810204080ULL) >> 56) << (8 * b);
            }
            sums = byte_sums(lo);
            k_lo = (int)(sums >> 56);
            k = k_lo + (int)(hi & 1) + (int)(hi >> 1);
            if (!k) {
                result = -1 - (long)i;
                break;
            }
            pick = (int)(us[i] * k);
            if (pick >= k) pick = k - 1;      /* u just below 1 rounded up */
            if (pick < 0) pick = 0;
            if (pick < k_lo) out[i] = select_bit(lo, sums, pick);
            else out[i] = (pick == k_lo && (hi & 1)) ? 64 : 65;
        }
    }
    PyBuffer_Release(&u);
    PyBuffer_Release(&m);
    PyBuffer_Release(&o);
    return PyLong_FromLong(result);
}

static PyMethodDef module_methods[] = {
    {"sample", py_sample, METH_VARARGS,
     "sample(masks, u, out) -> int: for each row i of masks (int8, N x 66) write to out[i] "
     "(int64) its floor(u[i] * k)-th legal action, k the row's legal count; -1 - i for the "
     "first row with none, else 0. None (nothing written) when PRESIDENT_PURE is 1."},
    {"direct", py_direct, METH_NOARGS,
     "direct() -> bool: whether generators of random.Random are read and written in their "
     "own memory (proved at import; else through getstate()/setstate())."},
    {"set_direct", py_set_direct, METH_O,
     "set_direct(flag) -> bool: read and write generators in their own memory (after proving "
     "the layout again) or only through getstate()/setstate(); returns whether the direct "
     "path is on."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "president._vector",
    "The batched one-deal core under president.env.VectorEnv (see president/native/_vector.c).",
    -1, module_methods, NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__vector(void) {
    PyObject *m, *layout;
    if (PyType_Ready(&CoreType) < 0) return NULL;
    m = PyModule_Create(&module);
    if (!m) return NULL;
    mt_setup();
    bits_setup();
    mask8_init();
    Py_INCREF(&CoreType);
    if (PyModule_AddObject(m, "Core", (PyObject *)&CoreType) < 0) {
        Py_DECREF(&CoreType);
        Py_DECREF(m);
        return NULL;
    }
    /* the layout this file writes, for the glue to compare with encoding.piece_slices() */
    layout = Py_BuildValue(
        "{sisisisisisisisisisisisisisisisisisisisi}",
        "hand", O_HAND, "pile", O_PILE, "cleared", O_CLEARED, "played", O_PLAYED,
        "given", O_GIVEN, "received", O_RECEIVED, "to_beat_rank", O_TO_BEAT_RANK,
        "to_beat_count", O_TO_BEAT_COUNT, "hand_counts", O_HAND_COUNTS, "passed", O_PASSED,
        "finished", O_FINISHED, "to_act", O_TO_ACT, "latest", O_LATEST, "seated", O_SEATED,
        "scores", O_SCORES, "phase", O_PHASE, "give_count", O_GIVE_COUNT,
        "give_to", O_GIVE_TO, "OBS_SIZE", OBS_SIZE, "NUM_ACTIONS", NUM_ACTIONS);
    if (!layout || PyModule_AddObject(m, "LAYOUT", layout) < 0) {
        Py_XDECREF(layout);
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
