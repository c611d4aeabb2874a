/* president/native/_mixed.h: the mixed play-out (each seat in a style of its own) in C. Included
 * by president/native/_playout.c after its Python glue, just before the method table (it uses St,
 * r_apply, Trace, trace_add, the MT of _mt.h, im_choice and simple_choice of _intermediate.h,
 * r_legal of _rules.h, and the glue's deal_load, get_ints, check_rank_totals and
 * play_loaded); not a header of its own.
 *
 * The Python code is the reference; this file restates, statement for statement:
 *   - play_mixed  president.players.playout_policies.mixed_playout: seat s plays style
 *                 style[s]: 0 im_choice (the intermediate player's heuristic choice, no
 *                 endgame solve), 1 simple_choice, 2 the legal action at index
 *                 int(random() * len(legal)) of FastDeal.legal_actions (one draw at each
 *                 of its decisions, even a forced one).
 * Normal rank order only: president.players.compiled takes the Python path under the
 * ``reversal`` twist. tests/test_mixed_playout.py checks it against the Python code.
 */
#ifndef PRESIDENT_MIXED_H
#define PRESIDENT_MIXED_H

/* mixed_playout: play ``d`` to its end, seat s in style ``style[s]`` */
static int play_mixed(St *d, MT *mt, const int *style, Trace *tr) {
    int tot[13], r, s;
    for (r = 0; r < 13; r++) {
        tot[r] = 0;
        for (s = 0; s < d->n; s++) tot[r] += d->hands[s][r];
    }
    while (d->to_act >= 0) {
        int a;
        switch (style[d->to_act]) {
        case 0: a = im_choice(d, tot); break;
        case 1: a = simple_choice(d); break;
        default: {  /* FastDeal.legal_actions()[int(random() * len(...))] */
            int acts[56], n = r_legal(d, acts);
            a = acts[(int)(mt_random(mt) * n)];
            break;
        }
        }
        if (a >= 0) tot[a >> 2] -= (a & 3) + 1;
        if (trace_add(tr, a) < 0) return -1;
        r_apply(d, a);
    }
    return 0;
}

PyDoc_STRVAR(mixed_playout_doc,
"mixed_playout(deal, rng, styles, trace) -> finish\n\n"
"Play the FastDeal ``deal`` out in place, seat s in style ``styles[s]`` (0 intermediate, 1\n"
"simple, 2 random), drawing from the random.Random ``rng`` exactly as\n"
"playout_policies.mixed_playout does, and leave ``rng`` in the state the Python code would.\n"
"Returns ``deal.finish``; with ``trace`` true returns ``(deal.finish, actions)``.");

static int play_mixed_args(St *d, MT *mt, const void *args, Trace *tr) {
    return play_mixed(d, mt, (const int *)args, tr);
}

static PyObject *py_mixed_playout(PyObject *self, PyObject *args) {
    PyObject *deal, *rng, *styles;
    int want_trace, style[MAXP], s;
    St d;
    if (!PyArg_ParseTuple(args, "OOOp", &deal, &rng, &styles, &want_trace)) return NULL;
    if (deal_load(deal, &d) < 0) return NULL;
    if (!PyList_Check(styles) || PyList_GET_SIZE(styles) != d.n) {
        PyErr_Format(PyExc_ValueError, "styles must be a list of %d ints (one per seat)", d.n);
        return NULL;
    }
    if (get_ints(styles, style, d.n, "styles") < 0) return NULL;
    for (s = 0; s < d.n; s++) {
        if (style[s] < 0 || style[s] > 2) {
            PyErr_Format(PyExc_ValueError, "style %d of seat %d: give 0 (intermediate), 1 "
                         "(simple) or 2 (random)", style[s], s);
            return NULL;
        }
    }
    if (check_rank_totals(&d) < 0) return NULL;
    return play_loaded(deal, rng, &d, play_mixed_args, style, want_trace);
}

#endif
