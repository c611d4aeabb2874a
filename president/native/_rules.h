/* president/native/_rules.h: the rules of play of one deal, stated once in C.
 *
 * This is president/kernel.py restated on one C struct, RState; the Python module is the
 * reference and this header must agree with it, never the other way round. Every C unit that
 * plays includes it and uses it: president/native/_playout.c (its play-outs, and the headers
 * it includes: _position.h, _intermediate.h, _endgame.h, _mixed.h) and
 * president/native/_vector.c. Nothing else in C says what may follow what, what a play or a
 * pass does, or when the pile clears.
 *
 * Values, as in president/kernel.py: a rank is 0 (three) .. 12 (two); a count 1 .. 4; an
 * action R_PASS (-1) or rank * 4 + count - 1; outcomes R_GOES_ON .. R_ENDED are the kernel's
 * GOES_ON .. ENDED. mode is the passing option's index: 0 re-enter, 1 sit-out, 2 once-around.
 *
 * Which rules values C may play at all is decided in Python, once:
 * president/native/__init__.py (NATIVE_VALUES). A new option starts there (Python plays it
 * until C is taught), then gets its field and its test here.
 *
 * The ways a play clears the pile at once are bits of RState.clears, one bit per clearing
 * rule the options turn on (r_play_clears). A new clearing rule (say "twos clear": a play of
 * twos clears the pile and the same player leads again) is one R_CLEAR_ bit, one outcome and
 * one test in r_play_clears.
 */
#ifndef PRESIDENT_RULES_H
#define PRESIDENT_RULES_H

#define R_MAXP 7      /* seats at most */
/* inlined into the play-outs' loops, so that a state in local variables stays in registers */
#define R_HOT static inline __attribute__((always_inline))
#define R_PASS (-1)   /* the action of a pass */

/* What a transition did (president/kernel.py's outcomes); R_NOBODY is the error of a state no
 * deal reaches: no seat holds cards, so no one can act (the kernel raises ValueError). */
enum {
    R_NOBODY = -1,
    R_GOES_ON = 0,
    R_CLEARED_ALL_PASSED = 1,
    R_CLEARED_ONCE_AROUND = 2,
    R_CLEARED_LAST_OF_RANK = 3,
    R_ENDED = 4,
    R_CLEARED_TWOS = 5
};

/* The clearing rules, bits of RState.clears (kernel.CLEARS_OPTIONS' bits, which Python
 * passes in as they are); R_CLEARS_KNOWN is every bit stated here, which the allow-list
 * reads (president/native/__init__.py): a bit missing from it is played in Python. */
#define R_CLEAR_LAST_OF_RANK 1u   /* last_of_rank_clears: the fourth card of a rank in a row */
#define R_CLEAR_TWOS 2u           /* twos_clear: a play of twos */
#define R_CLEARS_KNOWN (R_CLEAR_LAST_OF_RANK | R_CLEAR_TWOS)

/* Whether `clears`, as Python passes it, names only clearing rules stated here (every loader
 * of the options checks it, so that a bit C does not know is refused, never ignored). */
static inline int r_clears_known(int clears) {
    return clears >= 0 && !((unsigned)clears & ~R_CLEARS_KNOWN);
}

/* The rules values and the state of the play of one deal (president.kernel.PlayState's
 * attributes, plus the cards per rank of each hand). */
typedef struct RState {
    /* the options */
    int n;                     /* seats, 2 .. R_MAXP */
    int strict;                /* beat: 1 higher, 0 equal-or-higher */
    int mode;                  /* passing: 0 re-enter, 1 sit-out, 2 once-around */
    unsigned clears;           /* the clearing rules on: R_CLEAR_ bits */
    int reversal;              /* reversal: a play of four cards reverses the rank order */
    /* the play */
    int hands[R_MAXP][13];     /* cards per rank of each seat (r_apply keeps them) */
    int ncards[R_MAXP];        /* cards held per seat */
    int to_act;                /* seat to act, -1 once the deal is over */
    int need;                  /* cards per play on the pile, 0 when it is empty (a lead) */
    int top;                   /* rank of the latest play, -1 when the pile is empty */
    int same;                  /* cards of rank top put on this pile in a row */
    int last;                  /* seat of the latest play, -1 before the first */
    int passes;                /* passes since the latest play */
    unsigned passed;           /* seats that passed (since the latest play under re-enter) */
    int reversed;              /* the rank order is reversed now (reversal only) */
    int rl[R_MAXP], rl_head, rl_len;   /* once-around: seats still to answer, rl[rl_head ..] */
    int finish[R_MAXP], nfinish;       /* seats in finishing order */
    int after[R_MAXP];         /* the next seat clockwise: (seat + 1) % n */
} RState;

/* Set the options of s (and its turn order); the play is left as it is. */
static inline void r_options(RState *s, int n, int strict, int mode, unsigned clears,
                             int reversal) {
    int i;
    s->n = n;
    s->strict = strict != 0;
    s->mode = mode;
    s->clears = clears;
    s->reversal = reversal != 0;
    for (i = 0; i < n; i++) s->after[i] = i + 1 == n ? 0 : i + 1;
}

/* Whether last_of_rank_clears is on (the policies weigh it). */
static inline int r_lor(const RState *s) { return (s->clears & R_CLEAR_LAST_OF_RANK) != 0; }

/* A fresh pile with `leader` to lead; ncards, hands and the options as they are. */
static inline void r_start(RState *s, int leader) {
    s->to_act = leader;
    s->need = 0; s->top = -1; s->same = 0; s->last = -1; s->passes = 0; s->passed = 0;
    s->reversed = 0;
    s->rl_head = 0; s->rl_len = 0;
    s->nfinish = 0;
}

/* ----- what may follow what ---------------------------------------------------------------- */

/* The ranks lo .. hi - 1 that beat a play of rank `top` (kernel.follow_ranks, built on
 * kernel.first_rank_to_follow): in normal order from top + 1 (beat = higher, strict) or top
 * itself (equal-or-higher) up to the two; in reversed order from the three up to the rank
 * below top (top included when not strict). An empty range (lo >= hi) means nothing beats
 * top. This is the one statement of the beat rule in C. */
static inline void r_follow(int top, int strict, int reversed, int *lo, int *hi) {
    if (reversed) {
        *lo = 0;
        *hi = 13 - ((12 - top) + (strict != 0));
    } else {
        *lo = top + (strict != 0);
        *hi = 13;
    }
}

/* Whether a play of `rank` beats the latest play's rank `top` (counts equal): kernel.beats. */
static inline int r_beats(int rank, int top, int strict, int reversed) {
    int lo, hi;
    r_follow(top, strict, reversed, &lo, &hi);
    return lo <= rank && rank < hi;
}

/* Whether the seat to act of s may take `action` (kernel.may_play, kernel.may_pass, holding
 * the cards included): a pass only on a pile; a play of count cards of a rank it holds that
 * many of, any on an empty pile, on a pile exactly `need` cards of a rank that beats top. */
static inline int r_may_act(const RState *s, int action) {
    int rank, count;
    if (s->to_act < 0 || action < R_PASS || action > 51) return 0;
    if (action == R_PASS) return s->need > 0;
    rank = action >> 2;
    count = (action & 3) + 1;
    if (s->hands[s->to_act][rank] < count) return 0;
    return s->need == 0 || (count == s->need && r_beats(rank, s->top, s->strict, s->reversed));
}

/* Every legal action of the seat to act (kernel.legal_actions) into out (53 ints at least);
 * returns how many: on an empty pile each count 1 .. held of each held rank, ranks low to
 * high; on a pile each rank that beats top held at least `need` times, low to high, then the
 * pass. */
static inline int r_legal(const RState *s, int *out) {
    const int *hand = s->hands[s->to_act];
    int need = s->need, n = 0, r, k, lo, hi;
    if (need == 0) {
        for (r = 0; r < 13; r++)
            for (k = 0; k < hand[r]; k++) out[n++] = r * 4 + k;
        return n;
    }
    r_follow(s->top, s->strict, s->reversed, &lo, &hi);
    for (r = lo; r < hi; r++)
        if (hand[r] >= need) out[n++] = r * 4 + need - 1;
    out[n++] = R_PASS;
    return n;
}

/* ----- what a play or a pass does ---------------------------------------------------------- */

/* The next seat clockwise from `seat` that holds cards (PlayState.next_with_cards; `seat`
 * itself after a whole turn round); -1 when no seat holds cards. */
R_HOT int r_next_with_cards(const RState *s, int seat) {
    int t = s->after[seat];
    while (!s->ncards[t]) {    /* the seat on the left holds cards most often: one test */
        if (t == seat) return -1;
        t = s->after[t];
    }
    return t;
}

/* sit-out: the next seat clockwise from `seat` that holds cards and has not passed on this
 * pile, -1 if none (PlayState.next_eligible). */
R_HOT int r_next_eligible(const RState *s, int seat) {
    int i, t = seat;
    for (i = 0; i < s->n - 1; i++) {
        t = s->after[t];
        if (s->ncards[t] && !((s->passed >> t) & 1u)) return t;
    }
    return -1;
}

/* The pile is cleared (PlayState._clear): the latest player leads, or the next seat with
 * cards if it went out. Returns `outcome`, or R_NOBODY when no seat holds cards (or there
 * was no latest play). */
R_HOT int r_clear(RState *s, int outcome) {
    int w = s->last;
    s->need = 0;
    s->top = -1;
    s->same = 0;
    s->passes = 0;
    s->passed = 0;
    s->rl_head = 0;
    s->rl_len = 0;
    if (w < 0) return R_NOBODY;   /* no latest play: a state no deal reaches */
    if (!s->ncards[w]) w = r_next_with_cards(s, w);
    if (w < 0) return R_NOBODY;
    s->to_act = w;
    return outcome;
}

/* Whether the play just made (s->same and s->top updated) clears the pile at once, by one of
 * the clearing rules on in s->clears: its outcome, or R_GOES_ON for none. last_of_rank_clears:
 * the play put the fourth card of its rank on the pile (kernel.completes_rank). */
R_HOT int r_play_clears(const RState *s, unsigned clears) {
    if ((clears & R_CLEAR_LAST_OF_RANK) && s->same == 4) return R_CLEARED_LAST_OF_RANK;
    if ((clears & R_CLEAR_TWOS) && s->top == 12) return R_CLEARED_TWOS;
    return R_GOES_ON;
}

/* `seat` plays `count` cards of `rank` (PlayState.play, unchecked: a legal play of the seat
 * to act); the hand's cards per rank are the caller's (r_apply takes them out). A seat whose
 * count reaches 0 goes out, in the next place at once. Returns the outcome (R_GOES_ON,
 * R_CLEARED_*, R_ENDED) or R_NOBODY. `mode`, `clears` and `reversal` are s->mode, s->clears
 * and s->reversal, passed apart so that a play-out compiled for one value of each tests none
 * of them in its loop. */
R_HOT int r_play_k(RState *s, int seat, int rank, int count, const int mode, const unsigned clears,
                   const int reversal) {
    int held = s->ncards[seat] - count, out, t;
    s->ncards[seat] = held;
    if (s->need == 0) {                        /* the lead fixes the count of the pile */
        s->need = count;
        if (mode == 2) {
            s->rl_head = 0;
            s->rl_len = 0;
            t = seat;
            for (out = 1; out < s->n; out++) {
                t = s->after[t];
                if (s->ncards[t]) s->rl[s->rl_len++] = t;
            }
        }
    } else if (mode == 2 && s->rl_len) {
        s->rl_head++;
        s->rl_len--;
    }
    s->same = rank == s->top ? s->same + count : count;
    if (count == 4 && reversal) s->reversed = !s->reversed;
    s->top = rank;
    s->last = seat;
    s->passes = 0;
    if (mode == 0) s->passed = 0;
    if (!held) {                               /* going out: the next place, at once */
        s->finish[s->nfinish++] = seat;
        if (s->n - s->nfinish == 1) {          /* one seat left holding cards: it is last */
            for (t = 0; t < s->n; t++)
                if (s->ncards[t]) { s->finish[s->nfinish++] = t; break; }
            s->to_act = -1;
            return R_ENDED;
        }
    }
    out = r_play_clears(s, clears);
    if (out != R_GOES_ON) return r_clear(s, out);
    if (mode == 0) {
        t = r_next_with_cards(s, seat);
        if (t < 0) return R_NOBODY;
        s->to_act = t;
    } else if (mode == 1) {
        t = r_next_eligible(s, seat);
        if (t < 0) return r_clear(s, R_CLEARED_ALL_PASSED);
        s->to_act = t;
    } else if (s->rl_len) {
        s->to_act = s->rl[s->rl_head];
    } else {
        return r_clear(s, R_CLEARED_ONCE_AROUND);
    }
    return R_GOES_ON;
}

/* `seat` passes (PlayState.pass_, unchecked: a legal pass of the seat to act). Returns the
 * outcome (R_GOES_ON, R_CLEARED_ALL_PASSED, R_CLEARED_ONCE_AROUND) or R_NOBODY. */
R_HOT int r_pass_k(RState *s, int seat, const int mode) {
    int t, passes = s->passes + 1;
    s->passes = passes;
    s->passed |= 1u << seat;
    if (mode == 0) {           /* re-enter: every other seat with cards passed since the play */
        int active = s->n - s->nfinish;
        if (passes >= (s->ncards[s->last] ? active - 1 : active))
            return r_clear(s, R_CLEARED_ALL_PASSED);
        t = r_next_with_cards(s, seat);
        if (t < 0) return R_NOBODY;
        s->to_act = t;
    } else if (mode == 1) {    /* sit-out: no one but the latest player still eligible */
        t = r_next_eligible(s, seat);
        if (t < 0 || t == s->last) return r_clear(s, R_CLEARED_ALL_PASSED);
        s->to_act = t;
    } else {                   /* once-around: one turn each after the lead */
        if (s->rl_len) { s->rl_head++; s->rl_len--; }
        if (!s->rl_len) return r_clear(s, R_CLEARED_ONCE_AROUND);
        s->to_act = s->rl[s->rl_head];
    }
    return R_GOES_ON;
}

/* r_play_k under the options of s. */
static inline int r_play(RState *s, int seat, int rank, int count) {
    return r_play_k(s, seat, rank, count, s->mode, s->clears, s->reversal);
}

/* r_pass_k under the options of s. */
static inline int r_pass(RState *s, int seat) {
    return r_pass_k(s, seat, s->mode);
}

/* `seat` plays `count` cards of `rank` and they leave its hand: r_play_k, the hand kept. */
R_HOT int r_take_k(RState *s, int seat, int rank, int count, const int mode,
                   const unsigned clears, const int reversal) {
    s->hands[seat][rank] -= count;
    return r_play_k(s, seat, rank, count, mode, clears, reversal);
}

/* The seat to act takes `action` (a legal one, unchecked: FastDeal.apply): a pass, or a play
 * whose cards leave its hand. Returns the outcome, as r_play and r_pass. */
R_HOT int r_apply_k(RState *s, int action, const int mode, const unsigned clears,
                    const int reversal) {
    int seat = s->to_act, rank, count;
    if (action < 0) return r_pass_k(s, seat, mode);
    rank = action >> 2;
    count = (action & 3) + 1;
    s->hands[seat][rank] -= count;
    return r_play_k(s, seat, rank, count, mode, clears, reversal);
}

/* r_apply_k under the options of s. */
static inline int r_apply(RState *s, int action) {
    return r_apply_k(s, action, s->mode, s->clears, s->reversal);
}

#endif /* PRESIDENT_RULES_H */
