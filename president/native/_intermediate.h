/* president/native/_intermediate.h: the intermediate player's choice on counts, its whole-deal
 * play-out and the expert's style likelihoods, in C. Included by president/native/_playout.c
 * after its FastDeal state (St, the RState of _rules.h; Trace, trace_add); not a header of its own.
 *
 * The Python code is the reference; this file restates, statement for statement:
 *   - im_choice         president.players.playout_policies._heuristic_choice, in normal
 *                       rank order (the ``reversal`` twist stays in Python: the C state
 *                       has no reversed order, and president.players.compiled takes the
 *                       Python path for rules with that twist);
 *   - play_intermediate playout_policies.intermediate_playout(deal, endgame_limit=0): the
 *                       heuristic choice at every decision, no endgame solve;
 *   - simple_choice     president.players.playout_policies.simple_code;
 *   - style_rows        president.players.expert.style_likelihoods (its replay of the
 *                       deal's history and the log-likelihood sums, same order of sums).
 * tests/test_compiled_intermediate.py checks each against its Python original.
 *
 * Actions are ints as in fastsim: PASS = -1, a play = rank * 4 + count - 1.
 */
#ifndef PRESIDENT_INTERMEDIATE_H
#define PRESIDENT_INTERMEDIATE_H

#include <math.h>

#define IM_HIGH_SINGLE 10  /* playout_policies._HIGH_SINGLE (a king) */
#define IM_HIGH_SET 8      /* playout_policies._HIGH_SET (jacks) */

/* _heuristic_choice(deal, tot) for the seat to act, in normal order. ``tot``: cards per
 * rank still in all hands together (13 ints). The deal must not be over. */
static int im_choice(const St *d, const int *tot) {
    int seat = d->to_act, need = d->need, strict = d->strict, lor = r_lor(d);
    const int *hand = d->hands[seat];
    const int *ncards = d->ncards;
    int fit = -1, broken = -1, r, q, s, k;
    int most = 0, least = 99, rev = d->reversed;
    int tops[5] = {-1, -1, -1, -1, -1};
    if (need) {
        int start, hi;
        r_follow(d->top, strict, d->reversed, &start, &hi);
        for (r = start; r < hi; r++) {
            k = hand[r];
            if (k == need) { fit = r; break; }
            if (need < k && k < 4 && broken < 0) broken = r;  /* never break four of a kind */
        }
        if (fit < 0) {
            if (broken < 0) return PASS;
            fit = broken;
        } else if (ncards[seat] == need) {
            return fit * 4 + need - 1;  /* goes out */
        }
    }
    for (s = 0; s < d->n; s++) {
        if (s != seat) {
            k = ncards[s];
            if (k > most) most = k;
            if (k && k < least) least = k;
        }
    }
    /* tops[k]: the highest rank of which some other seat may hold k cards (-1: none) */
    for (q = 12; q >= 0; q--) {
        int h = tot[q] - hand[q];
        while (h > 0 && tops[h] < 0) { tops[h] = q; h--; }
    }
    if (need == 0) {
        int held[13], nheld = 0, winners[13], nwin = 0, losers[13], nlose = 0, i;
        for (r = 0; r < 13; r++) if (hand[r]) held[nheld++] = r;
        if (nheld == 1) {
            r = held[0];
            return r * 4 + hand[r] - 1;
        }
        for (i = 0; i < nheld; i++) {
            r = held[i];
            k = hand[r];
            if (k == 4 || most < k || !r_beats(tops[k], r, strict, rev)) winners[nwin++] = r;
            else losers[nlose++] = r;
        }
        if (nwin && nlose <= 1) {
            r = winners[0];
        } else if (least == 1) {
            r = -1;
            for (i = 0; i < nlose; i++) if (hand[losers[i]] >= 2) { r = losers[i]; break; }
            if (r < 0) r = losers[nlose - 1];
        } else {
            r = losers[0];
        }
        return r * 4 + hand[r] - 1;
    }
    /* following: ``fit`` is the only rank considered */
    r = fit;
    {
        int top = d->top, n_losers = 0, controls = 0;
        int completes = lor && (r == top ? d->same + need : need) == 4;  /* completes_rank */
        int high = r >= (need == 1 ? IM_HIGH_SINGLE : IM_HIGH_SET);
        if (r != 12 && !completes && !high && most >= need && r_beats(tops[need], r, strict, rev))
            return r * 4 + need - 1;
        if (least <= 2) return r * 4 + need - 1;
        for (q = 0; q < 13; q++) {
            k = q == r ? hand[q] - need : hand[q];
            if (!k) continue;
            if (q == 12 || q >= (k == 1 ? IM_HIGH_SINGLE : IM_HIGH_SET) || (lor && k == 4) ||
                most < k || !r_beats(tops[k], q, strict, rev))
                controls++;
            else
                n_losers++;
        }
        if (n_losers <= controls + 1) return r * 4 + need - 1;
    }
    return PASS;
}

#ifndef IM_CHOICE_ONLY  /* an includer with no Trace (president/native/_vector.c) */
/* intermediate_playout(deal, endgame_limit=0): every seat plays im_choice until the end */
static int play_intermediate(St *d, Trace *tr) {
    int tot[13], r, s;
    for (r = 0; r < 13; r++) {
        tot[r] = 0;
        for (s = 0; s < d->n; s++) tot[r] += d->hands[s][r];
    }
    while (d->to_act >= 0) {
        int a = im_choice(d, tot);
        if (a >= 0) tot[a >> 2] -= (a & 3) + 1;
        if (trace_add(tr, a) < 0) return -1;
        r_apply(d, a);
    }
    return 0;
}

#endif /* IM_CHOICE_ONLY */

/* playout_policies.simple_code: the simple player's choice for the seat to act */
static int simple_choice(const St *d) {
    const int *hand = d->hands[d->to_act];
    int need = d->need, r, broken = -1;
    if (!need) {
        r = 0;
        while (!hand[r]) r++;
        return r * 4 + hand[r] - 1;
    }
    int lo, hi;
    r_follow(d->top, d->strict, d->reversed, &lo, &hi);
    for (r = lo; r < hi; r++) {
        int k = hand[r];
        if (k == need) return r * 4 + need - 1;
        if (k > need && broken < 0) broken = r;
    }
    return broken >= 0 ? broken * 4 + need - 1 : PASS;
}

#ifndef IM_CHOICE_ONLY
/* len(FastDeal.legal_actions()): r_legal's count */
static int legal_count(const St *d) {
    int acts[56];
    return r_legal(d, acts);
}

/* style_likelihoods' replay: ``d`` is the deal at its start (the world's hands plus the
 * cards played), ``hist_seat``/``hist_code`` the history (``nhist`` actions), ``row_of[s]``
 * the index of seat s's row in ``rows`` (3 doubles per row: intermediate, simple,
 * random), -1 for a seat without one. Returns 0; 1 when a seat with a row has a choice
 * while only two seats hold cards (the Python intermediate_choice would solve that
 * endgame: the caller takes the Python path); -2 (and the index of the action in
 * *bad) for an action that is not legal there. */
static int style_rows(St *d, const int *hist_seat, const int *hist_code, Py_ssize_t nhist,
                      const int *row_of, double *rows, double noise, Py_ssize_t *bad) {
    int tot[13], r, s;
    Py_ssize_t i;
    for (r = 0; r < 13; r++) {
        tot[r] = 0;
        for (s = 0; s < d->n; s++) tot[r] += d->hands[s][r];
    }
    for (i = 0; i < nhist; i++) {
        int seat = hist_seat[i], code = hist_code[i];
        if (!r_may_act(d, code)) { *bad = i; return -2; }
        if (seat >= 0 && seat < d->n && row_of[seat] >= 0) {
            int k = legal_count(d);
            if (k > 1) {
                double hit, miss, one, *row = rows + 3 * row_of[seat];
                if (d->n - d->nfinish == 2) return 1;
                hit = log(1 - noise + noise / k);
                miss = log(noise / k);
                one = -log((double)k);
                row[0] += im_choice(d, tot) == code ? hit : miss;
                row[1] += simple_choice(d) == code ? hit : miss;
                row[2] += one;
            }
        }
        if (code >= 0) tot[code >> 2] -= (code & 3) + 1;
        r_apply(d, code);
    }
    return 0;
}

#endif /* IM_CHOICE_ONLY */

#endif /* PRESIDENT_INTERMEDIATE_H */
