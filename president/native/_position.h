/* president._playout.Position: president.kernel.Position in C, for president.deal.Deal.
 *
 * The Python class in president/kernel.py is the statement of the rules of play and the
 * reference. This type keeps its storage (the same attribute names, read and written from
 * Python as before) and runs its transitions with the RState functions of _rules.h:
 *   play, pass_, next_with_cards, next_eligible and _clear.
 * ncards, round_left and finish stay Python lists of ints, as in the Python class (a Deal
 * hands its ncards and finish lists out as counts and finish_order). Outcomes are the ints
 * of president/kernel.py (R_GOES_ON .. R_ENDED of _rules.h). mode is the passing option's
 * index: 0 re-enter, 1 sit-out, 2 once-around.
 * tests/test_compiled_position.py plays random deals under every preset, twist and table
 * size with both and compares every outcome and every attribute after every action.
 */
#include <structmember.h>

/* Every attribute is a Python object (ints, bools and lists), so that Python reads and
 * writes them as fast as the slots of the Python class (CPython specializes attribute access
 * to object members only). A method reads the object into an RState (k_load), runs the
 * _rules.h transition on it, and writes back what changed (k_store). */
typedef struct {
    PyObject_HEAD
    PyObject *players, *to_act, *need, *top, *same, *last, *passes, *passed, *mode;
    PyObject *strict, *clears, *reversal, *reversed;
    PyObject *ncards, *round_left, *finish;
} PositionObject;

/* An RState read from a Position, and what it was when read (to write back the changes). */
typedef struct {
    RState r;
    PositionObject *obj;
    int ncards0[R_MAXP], rl0[R_MAXP], rl_len0, nfinish0, reversed0;
    int rl_read;   /* round_left was read: once-around with a pile (else it is never read) */
} KState;

/* Every field must be an exact int or bool, and every item of ncards and round_left an exact
 * int: then no Python code (an __index__, __bool__ or __del__) runs while the state is read,
 * which could change the object under it. */
static int k_int(PyObject *v, const char *name, int *out) {
    long x;
    if (v == NULL || !PyLong_CheckExact(v)) {
        PyErr_Format(PyExc_TypeError, "Position.%s must be an int", name);
        return 0;
    }
    x = PyLong_AsLong(v);
    if (x == -1 && PyErr_Occurred()) return 0;
    if (!FITS_INT(x)) {
        PyErr_Format(PyExc_ValueError, "Position.%s = %ld is out of range", name, x);
        return 0;
    }
    *out = (int)x;
    return 1;
}

/* A field that must be True or False, as 1 or 0 in *out; 0 with an error set. */
static int k_bool(PyObject *v, const char *name, int *out) {
    if (v == NULL || !PyBool_Check(v)) {
        PyErr_Format(PyExc_TypeError, "Position.%s must be True or False", name);
        return 0;
    }
    *out = v == Py_True;
    return 1;
}

/* Item i of ncards or round_left, which must be a plain int in range (see k_int); 0 with an
 * error set. */
static int k_item(PyObject *list, Py_ssize_t i, const char *name, int *out) {
    PyObject *v = PyList_GET_ITEM(list, i);
    if (!PyLong_CheckExact(v)) {
        PyErr_Format(PyExc_TypeError, "Position.%s must hold ints", name);
        return 0;
    }
    return k_int(v, name, out);
}

/* The state of p into k->r, its fields and lists checked; 0 with an error set. */
static int k_load(PositionObject *p, KState *k) {
    RState *r = &k->r;
    int strict, mode, clears, reversal, passed, i;
    k->obj = p;
    if (!(k_int(p->players, "players", &r->n) && k_int(p->to_act, "to_act", &r->to_act)
          && k_int(p->need, "need", &r->need) && k_int(p->top, "top", &r->top)
          && k_int(p->same, "same", &r->same) && k_int(p->last, "last", &r->last)
          && k_int(p->passes, "passes", &r->passes) && k_int(p->passed, "passed", &passed)
          && k_int(p->mode, "mode", &mode) && k_bool(p->strict, "strict", &strict)
          && k_int(p->clears, "clears", &clears) && k_bool(p->reversal, "reversal", &reversal)
          && k_bool(p->reversed, "reversed", &r->reversed)))
        return 0;
    if (r->n < 1 || r->n > R_MAXP) {
        PyErr_Format(PyExc_ValueError, "Position.players = %d: a table has 3 to 7 seats", r->n);
        return 0;
    }
    if (!r_clears_known(clears)) {
        PyErr_Format(PyExc_ValueError, "Position.clears = %d: the compiled Position knows the "
                     "clearing rules of the bits %u", clears, R_CLEARS_KNOWN);
        return 0;
    }
    r->passed = (unsigned)passed;
    r_options(r, r->n, strict, mode, (unsigned)clears, reversal);
    k->reversed0 = r->reversed;
    if (p->ncards == NULL || p->round_left == NULL || p->finish == NULL
            || !PyList_Check(p->ncards) || !PyList_Check(p->round_left) || !PyList_Check(p->finish)) {
        PyErr_SetString(PyExc_TypeError, "Position: ncards, round_left and finish must be lists");
        return 0;
    }
    if (PyList_GET_SIZE(p->ncards) != r->n) {
        PyErr_Format(PyExc_ValueError, "Position: ncards has %zd seats, players is %d",
                     PyList_GET_SIZE(p->ncards), r->n);
        return 0;
    }
    for (i = 0; i < r->n; i++) {
        if (!k_item(p->ncards, i, "ncards", &r->ncards[i])) return 0;
        k->ncards0[i] = r->ncards[i];
    }
    if (PyList_GET_SIZE(p->round_left) > r->n || PyList_GET_SIZE(p->finish) > r->n) {
        PyErr_Format(PyExc_ValueError, "Position: round_left and finish hold at most %d seats",
                     r->n);
        return 0;
    }
    r->rl_head = 0;
    /* round_left is read only where the Python code reads it: under once-around on a pile
     * (a lead replaces it unread, and no other mode uses it) */
    k->rl_read = r->mode == 2 && r->need > 0;
    r->rl_len = k->rl_len0 = k->rl_read ? (int)PyList_GET_SIZE(p->round_left) : 0;
    for (i = 0; i < r->rl_len; i++) {
        if (!k_item(p->round_left, i, "round_left", &r->rl[i])) return 0;
        if (r->rl[i] < 0 || r->rl[i] >= r->n) {
            PyErr_Format(PyExc_ValueError, "round_left holds %d, not a seat", r->rl[i]);
            return 0;
        }
        k->rl0[i] = r->rl[i];
    }
    r->nfinish = k->nfinish0 = (int)PyList_GET_SIZE(p->finish);   /* its items are not read */
    return 1;
}

/* *slot = value, unless it holds that int already; 0 on an error. */
static int k_put(PyObject **slot, int value) {
    PyObject *v;
    if (*slot != NULL && PyLong_CheckExact(*slot) && PyLong_AsLong(*slot) == value) return 1;
    v = PyLong_FromLong(value);
    if (v == NULL) return 0;
    Py_XSETREF(*slot, v);
    return 1;
}

/* The list of round_left after a transition: the same list with its first items popped when
 * only passes and plays on the pile answered the lead (as list.pop(0) does in Python), a new
 * list when the lead filled it or a clear emptied it; 0 on an error. */
static int k_store_round(KState *k, int out) {
    PositionObject *p = k->obj;
    RState *r = &k->r;
    PyObject *fresh, *old;
    int i, same = r->rl_len == k->rl_len0;
    if (!k->rl_read && !r->rl_len
            && !(out >= R_CLEARED_ALL_PASSED && out <= R_CLEARED_LAST_OF_RANK
                 && PyList_GET_SIZE(p->round_left)))
        return 1;   /* not read, not filled, and not emptied by a clear */
    if (r->rl_head > 0)
        return PyList_SetSlice(p->round_left, 0, r->rl_head, NULL) == 0;
    for (i = 0; same && i < r->rl_len; i++) same = r->rl[i] == k->rl0[i];
    if (same) return 1;
    fresh = PyList_New(r->rl_len);
    if (fresh == NULL) return 0;
    for (i = 0; i < r->rl_len; i++) {
        PyObject *v = PyLong_FromLong(r->rl[i]);
        if (v == NULL) { Py_DECREF(fresh); return 0; }
        PyList_SET_ITEM(fresh, i, v);
    }
    old = p->round_left;
    p->round_left = fresh;
    Py_DECREF(old);   /* last: freeing it may run Python code */
    return 1;
}

/* Write the state of k back to its object (what changed) after a transition whose outcome
 * was `out`; 0 on an error. */
static int k_store(KState *k, int out) {
    PositionObject *p = k->obj;
    RState *r = &k->r;
    int i;
    if (!(k_put(&p->to_act, r->to_act) && k_put(&p->need, r->need) && k_put(&p->top, r->top)
          && k_put(&p->same, r->same) && k_put(&p->last, r->last)
          && k_put(&p->passes, r->passes) && k_put(&p->passed, (int)r->passed)))
        return 0;
    if (r->reversed != k->reversed0)   /* assigned only when it toggled */
        Py_XSETREF(p->reversed, Py_NewRef(r->reversed ? Py_True : Py_False));
    for (i = 0; i < r->n; i++) {
        if (r->ncards[i] != k->ncards0[i]) {
            PyObject *v = PyLong_FromLong(r->ncards[i]);
            if (v == NULL || PyList_SetItem(p->ncards, i, v) < 0) return 0;   /* steals v */
        }
    }
    for (i = k->nfinish0; i < r->nfinish; i++) {
        PyObject *v = PyLong_FromLong(r->finish[i]);
        int e;
        if (v == NULL) return 0;
        e = PyList_Append(p->finish, v);
        Py_DECREF(v);
        if (e < 0) return 0;
    }
    return k_store_round(k, out);
}

/* The error of a transition that found no seat holding cards (R_NOBODY): ValueError, as the
 * Python statement raises. Returns NULL. */
static PyObject *pos_nobody(void) {
    PyErr_SetString(PyExc_ValueError, "no seat holds cards, so no one can act: ncards is not a "
                    "state a deal reaches (the deal ends when one seat is left holding cards)");
    return NULL;
}

/* An argument as a C long, read before the state is (its __index__ may run Python code) */
static int pos_long_arg(PyObject *arg, long *out) {
    *out = PyLong_AsLong(arg);
    return !(*out == -1 && PyErr_Occurred());
}

/* v as a seat of the table of k; 0 with IndexError when it is none. */
static int pos_seat_arg(KState *k, long v, int *seat) {
    if (v < 0 || v >= k->r.n) {
        PyErr_Format(PyExc_IndexError, "seat %ld is not a seat of a table of %d", v, k->r.n);
        return 0;
    }
    *seat = (int)v;
    return 1;
}

/* The end of a transition: the state written back (also when no seat holds cards, as the
 * Python code would have changed it up to its error), and the outcome as an int. */
static PyObject *pos_done(KState *k, int out) {
    if (!k_store(k, out)) return NULL;
    return out == R_NOBODY ? pos_nobody() : PyLong_FromLong(out);
}

static PyObject *Position_play(PositionObject *p, PyObject *const *args, Py_ssize_t nargs) {
    KState k;
    int seat;
    long v, rank, count;
    if (nargs != 3) {
        PyErr_SetString(PyExc_TypeError, "play(seat, rank, count) takes 3 arguments");
        return NULL;
    }
    if (!pos_long_arg(args[0], &v) || !pos_long_arg(args[1], &rank)
            || !pos_long_arg(args[2], &count))
        return NULL;
    if (!k_load(p, &k) || !pos_seat_arg(&k, v, &seat)) return NULL;
    if (rank < 0 || rank > 12 || count < 1 || count > 4) {
        PyErr_Format(PyExc_ValueError, "play(%d, %ld, %ld): a rank is 0 to 12, a count 1 to 4",
                     seat, rank, count);
        return NULL;
    }
    if (k.r.nfinish >= k.r.n) {
        PyErr_SetString(PyExc_ValueError, "play: finish lists every seat, the deal is over");
        return NULL;
    }
    return pos_done(&k, r_play(&k.r, seat, (int)rank, (int)count));
}

static PyObject *Position_pass(PositionObject *p, PyObject *arg) {
    KState k;
    int seat;
    long v;
    if (!pos_long_arg(arg, &v) || !k_load(p, &k) || !pos_seat_arg(&k, v, &seat)) return NULL;
    if (k.r.mode == 0 && (k.r.last < 0 || k.r.last >= k.r.n)) {
        PyErr_SetString(PyExc_ValueError, "pass_: there is no latest play to pass on");
        return NULL;
    }
    return pos_done(&k, r_pass(&k.r, seat));
}

static PyObject *Position_next_with_cards(PositionObject *p, PyObject *arg) {
    KState k;
    int seat, s;
    long v;
    if (!pos_long_arg(arg, &v) || !k_load(p, &k) || !pos_seat_arg(&k, v, &seat)) return NULL;
    s = r_next_with_cards(&k.r, seat);
    return s < 0 ? pos_nobody() : PyLong_FromLong(s);
}

static PyObject *Position_next_eligible(PositionObject *p, PyObject *arg) {
    KState k;
    int seat;
    long v;
    if (!pos_long_arg(arg, &v) || !k_load(p, &k) || !pos_seat_arg(&k, v, &seat)) return NULL;
    return PyLong_FromLong(r_next_eligible(&k.r, seat));
}

static PyObject *Position_clear(PositionObject *p, PyObject *arg) {
    KState k;
    long outcome = PyLong_AsLong(arg);
    if (outcome == -1 && PyErr_Occurred()) return NULL;
    if (!k_load(p, &k)) return NULL;
    return pos_done(&k, r_clear(&k.r, (int)outcome));
}

static int Position_init(PositionObject *p, PyObject *args, PyObject *kwds) {
    static char *kwlist[] = {"players", "ncards", "leader", "strict", "mode", "clears", "reversal",
                             NULL};
    PyObject *players, *ncards, *leader, *strict = NULL, *mode = NULL, *clears = NULL;
    PyObject *reversal = Py_False, *list, *empty1, *empty2;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "O!OO!|$OO!O!O", kwlist, &PyLong_Type, &players,
                                     &ncards, &PyLong_Type, &leader, &strict, &PyLong_Type, &mode,
                                     &PyLong_Type, &clears, &reversal))
        return -1;
    if (strict == NULL || mode == NULL || clears == NULL) {
        PyErr_SetString(PyExc_TypeError, "Position() needs the keyword arguments strict, mode "
                        "and clears (mode 0, 1 or 2; clears a bit mask, kernel.clears_of)");
        return -1;
    }
    {   /* plain ints everywhere (see k_int): bools and int subclasses become ints */
        long pl = PyLong_AsLong(players), le = PyLong_AsLong(leader), mo = PyLong_AsLong(mode);
        long cl = PyLong_AsLong(clears);
        Py_ssize_t i;
        if (PyErr_Occurred()) return -1;
        list = PySequence_List(ncards);
        if (list == NULL) return -1;
        for (i = 0; i < PyList_GET_SIZE(list); i++) {
            PyObject *v = PyNumber_Index(PyList_GET_ITEM(list, i));
            if (v == NULL || PyList_SetItem(list, i, v) < 0) { Py_DECREF(list); return -1; }
        }
        players = PyLong_FromLong(pl);
        leader = PyLong_FromLong(le);
        mode = PyLong_FromLong(mo);
        clears = PyLong_FromLong(cl);
        if (!players || !leader || !mode || !clears) {
            Py_DECREF(list); Py_XDECREF(players); Py_XDECREF(leader); Py_XDECREF(mode);
            Py_XDECREF(clears);
            return -1;
        }
    }
    empty1 = PyList_New(0);
    empty2 = PyList_New(0);
    if (empty1 == NULL || empty2 == NULL) {
        Py_DECREF(list); Py_XDECREF(empty1); Py_XDECREF(empty2);
        Py_DECREF(players); Py_DECREF(leader); Py_DECREF(mode); Py_DECREF(clears);
        return -1;
    }
    Py_XSETREF(p->players, players);
    Py_XSETREF(p->ncards, list);
    Py_XSETREF(p->to_act, leader);
    Py_XSETREF(p->need, PyLong_FromLong(0));
    Py_XSETREF(p->top, PyLong_FromLong(-1));
    Py_XSETREF(p->same, PyLong_FromLong(0));
    Py_XSETREF(p->last, PyLong_FromLong(-1));
    Py_XSETREF(p->passes, PyLong_FromLong(0));
    Py_XSETREF(p->passed, PyLong_FromLong(0));
    Py_XSETREF(p->round_left, empty1);
    Py_XSETREF(p->finish, empty2);
    Py_XSETREF(p->mode, mode);
    Py_XSETREF(p->clears, clears);
    {   /* the options as bools (see k_bool) */
        int st = PyObject_IsTrue(strict), re = PyObject_IsTrue(reversal);
        if (st < 0 || re < 0) return -1;
        Py_XSETREF(p->strict, Py_NewRef(st ? Py_True : Py_False));
        Py_XSETREF(p->reversal, Py_NewRef(re ? Py_True : Py_False));
    }
    Py_XSETREF(p->reversed, Py_NewRef(Py_False));
    return 0;
}

#define POSITION_FIELDS(X) X(players) X(to_act) X(need) X(top) X(same) X(last) X(passes) \
    X(passed) X(mode) X(strict) X(clears) X(reversal) X(reversed) X(ncards) X(round_left) X(finish)
#define POSITION_ONE(f) + 1
#define POSITION_NFIELDS (0 POSITION_FIELDS(POSITION_ONE))

static void Position_dealloc(PositionObject *p) {
#define DROP(f) Py_CLEAR(p->f);
    POSITION_FIELDS(DROP)
#undef DROP
    Py_TYPE(p)->tp_free((PyObject *)p);
}

static PyTypeObject PositionType;
static PyObject *position_restore;   /* president._playout._position_restore, for __reduce__ */

/* copy, deepcopy and pickle: _position_restore(type, fields), fields in POSITION_FIELDS order */
static PyObject *Position_reduce(PositionObject *p, PyObject *Py_UNUSED(ignored)) {
    PyObject *fields = PyTuple_New(POSITION_NFIELDS);
    Py_ssize_t i = 0;
    if (fields == NULL) return NULL;
#define PUT(f) PyTuple_SET_ITEM(fields, i++, Py_NewRef(p->f ? p->f : Py_None));
    POSITION_FIELDS(PUT)
#undef PUT
    return Py_BuildValue("(O(ON))", position_restore, (PyObject *)Py_TYPE(p), fields);
}

static PyObject *py_position_restore(PyObject *Py_UNUSED(self), PyObject *args) {
    PyTypeObject *type;
    PositionObject *p;
    PyObject *fields;
    Py_ssize_t i = 0;
    if (!PyArg_ParseTuple(args, "O!O!", &PyType_Type, &type, &PyTuple_Type, &fields)) return NULL;
    if (!PyType_IsSubtype(type, &PositionType) || PyTuple_GET_SIZE(fields) != POSITION_NFIELDS) {
        PyErr_SetString(PyExc_TypeError, "_position_restore(Position, a tuple of its 16 fields)");
        return NULL;
    }
    p = (PositionObject *)type->tp_alloc(type, 0);
    if (p == NULL) return NULL;
#define GET(f) p->f = Py_NewRef(PyTuple_GET_ITEM(fields, i++));
    POSITION_FIELDS(GET)
#undef GET
    return (PyObject *)p;
}

static PyMethodDef Position_methods[] = {
    {"play", (PyCFunction)(void (*)(void))Position_play, METH_FASTCALL,
     "play(seat, rank, count) -> outcome: president.kernel.PlayState.play in C."},
    {"pass_", (PyCFunction)Position_pass, METH_O,
     "pass_(seat) -> outcome: president.kernel.PlayState.pass_ in C."},
    {"next_with_cards", (PyCFunction)Position_next_with_cards, METH_O,
     "next_with_cards(seat) -> seat: president.kernel.PlayState.next_with_cards in C."},
    {"next_eligible", (PyCFunction)Position_next_eligible, METH_O,
     "next_eligible(seat) -> seat or -1: president.kernel.PlayState.next_eligible in C."},
    {"_clear", (PyCFunction)Position_clear, METH_O,
     "_clear(outcome) -> outcome: president.kernel.PlayState._clear in C."},
    {"__reduce__", (PyCFunction)Position_reduce, METH_NOARGS, "For copy and pickle."},
    {NULL, NULL, 0, NULL},
};

static PyMemberDef Position_members[] = {
    {"players", T_OBJECT_EX, offsetof(PositionObject, players), 0, "number of seats"},
    {"ncards", T_OBJECT_EX, offsetof(PositionObject, ncards), 0, "cards held per seat (list)"},
    {"to_act", T_OBJECT_EX, offsetof(PositionObject, to_act), 0, "seat to act, -1 once over"},
    {"need", T_OBJECT_EX, offsetof(PositionObject, need), 0, "cards per play on the pile, 0 if empty"},
    {"top", T_OBJECT_EX, offsetof(PositionObject, top), 0, "rank of the latest play, -1 if empty"},
    {"same", T_OBJECT_EX, offsetof(PositionObject, same), 0, "cards of rank top put on in a row"},
    {"last", T_OBJECT_EX, offsetof(PositionObject, last), 0, "seat of the latest play, -1 before"},
    {"passes", T_OBJECT_EX, offsetof(PositionObject, passes), 0, "passes since the latest play"},
    {"passed", T_OBJECT_EX, offsetof(PositionObject, passed), 0, "bit mask of seats that passed"},
    {"round_left", T_OBJECT_EX, offsetof(PositionObject, round_left), 0,
     "seats still to answer the lead under once-around (list)"},
    {"finish", T_OBJECT_EX, offsetof(PositionObject, finish), 0, "finishing order (list)"},
    {"strict", T_OBJECT_EX, offsetof(PositionObject, strict), 0, "the beat option: strictly higher"},
    {"mode", T_OBJECT_EX, offsetof(PositionObject, mode), 0, "the passing option's index"},
    {"clears", T_OBJECT_EX, offsetof(PositionObject, clears), 0,
     "the clearing rules on (kernel.clears_of's bit mask)"},
    {"reversal", T_OBJECT_EX, offsetof(PositionObject, reversal), 0, "the reversal option"},
    {"reversed", T_OBJECT_EX, offsetof(PositionObject, reversed), 0, "the rank order is reversed now"},
    {NULL, 0, 0, 0, NULL},
};

static PyTypeObject PositionType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "president._playout.Position",
    .tp_basicsize = sizeof(PositionObject),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "president.kernel.Position in C (same attributes and transitions; the Python "
              "class is the reference). Position(players, ncards, leader, *, strict, mode, "
              "clears, reversal=False).",
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)Position_init,
    .tp_dealloc = (destructor)Position_dealloc,
    .tp_methods = Position_methods,
    .tp_members = Position_members,
};
