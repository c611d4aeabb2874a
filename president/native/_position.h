/* president._playout.Position: president.kernel.Position in C, for president.deal.Deal.
 *
 * The Python class in president/kernel.py is the statement of the rules of play and the
 * reference; this type restates its storage (the same attribute names, read and written
 * from Python as before) and its transitions, statement for statement:
 *   play, pass_, next_with_cards, next_eligible and _clear.
 * ncards, round_left and finish stay Python lists of ints, as in the Python class (a Deal
 * hands its ncards and finish lists out as counts and finish_order). Outcomes are the ints
 * of president/kernel.py: GOES_ON 0, CLEARED_ALL_PASSED 1, CLEARED_ONCE_AROUND 2,
 * CLEARED_LAST_OF_RANK 3, ENDED 4. mode is the passing option's index: 0 re-enter,
 * 1 sit-out, 2 once-around.
 * tests/test_compiled_position.py plays random deals under every preset, twist and table
 * size with both and compares every outcome and every attribute after every action.
 */
#include <structmember.h>

enum { K_GOES_ON = 0, K_ALL_PASSED = 1, K_ONCE_AROUND = 2, K_LAST_OF_RANK = 3, K_ENDED = 4 };

/* Every attribute is a Python object (ints, bools and lists), so that Python reads and
 * writes them as fast as the slots of the Python class (CPython specializes attribute access
 * to object members only). A transition reads the ints into a KState, runs on it, and writes
 * back what changed. */
typedef struct {
    PyObject_HEAD
    PyObject *players, *to_act, *need, *top, *same, *last, *passes, *passed, *mode;
    PyObject *strict, *lor, *reversal, *reversed;
    PyObject *ncards, *round_left, *finish;
} PositionObject;

typedef struct {
    int players, to_act, need, top, same, last, passes, passed, mode;
    int strict, lor, reversal, reversed;
    PositionObject *obj;
    PyObject *dropped[2];   /* replaced round_left lists, let go only after the write-back */
} KState;

/* Replace round_left; the old list is freed at the end of the method (freeing it may run
 * Python code, which must not run while the transition reads the object) */
static void k_set_round(KState *k, PyObject *fresh) {
    PyObject *old = k->obj->round_left;
    k->obj->round_left = fresh;
    if (k->dropped[0] == NULL) k->dropped[0] = old;
    else if (k->dropped[1] == NULL) k->dropped[1] = old;
    else Py_XDECREF(old);   /* never: a transition replaces it at most twice */
}

/* Every field must be an exact int or bool, and every item of ncards and round_left an exact
 * int when it is read (k_item; finish's items are never read): then no Python code (an
 * __index__, __bool__ or __del__) runs during a transition, which could change the object
 * under it. */
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

static int k_bool(PyObject *v, const char *name, int *out) {
    if (v == NULL || !PyBool_Check(v)) {
        PyErr_Format(PyExc_TypeError, "Position.%s must be True or False", name);
        return 0;
    }
    *out = v == Py_True;
    return 1;
}

/* An item of ncards or round_left, which must be a plain int (see k_int); -1 with an error */
static long k_item(PyObject *list, Py_ssize_t i, const char *name) {
    PyObject *v = PyList_GET_ITEM(list, i);
    if (!PyLong_CheckExact(v)) {
        PyErr_Format(PyExc_TypeError, "Position.%s must hold ints", name);
        return -1;
    }
    return PyLong_AsLong(v);
}

/* The ints of p, and its lists checked; 0 with an error set */
static int k_load(PositionObject *p, KState *k) {
    k->obj = p;
    k->dropped[0] = k->dropped[1] = NULL;
    if (!(k_int(p->players, "players", &k->players) && k_int(p->to_act, "to_act", &k->to_act)
          && k_int(p->need, "need", &k->need) && k_int(p->top, "top", &k->top)
          && k_int(p->same, "same", &k->same) && k_int(p->last, "last", &k->last)
          && k_int(p->passes, "passes", &k->passes) && k_int(p->passed, "passed", &k->passed)
          && k_int(p->mode, "mode", &k->mode) && k_bool(p->strict, "strict", &k->strict)
          && k_bool(p->lor, "lor", &k->lor) && k_bool(p->reversal, "reversal", &k->reversal)
          && k_bool(p->reversed, "reversed", &k->reversed)))
        return 0;
    if (k->players < 1 || k->players > 30) {
        PyErr_Format(PyExc_ValueError, "Position.players = %d: a table has 3 to 7 seats",
                     k->players);
        return 0;
    }
    if (p->ncards == NULL || p->round_left == NULL || p->finish == NULL
            || !PyList_Check(p->ncards) || !PyList_Check(p->round_left) || !PyList_Check(p->finish)) {
        PyErr_SetString(PyExc_TypeError, "Position: ncards, round_left and finish must be lists");
        return 0;
    }
    if (PyList_GET_SIZE(p->ncards) != k->players) {
        PyErr_Format(PyExc_ValueError, "Position: ncards has %zd seats, players is %d",
                     PyList_GET_SIZE(p->ncards), k->players);
        return 0;
    }
    return 1;   /* the items of ncards and round_left are checked as they are read */
}

static int k_put(PyObject **slot, int value) {
    PyObject *v;
    if (*slot != NULL && PyLong_CheckExact(*slot) && PyLong_AsLong(*slot) == value) return 1;
    v = PyLong_FromLong(value);
    if (v == NULL) return 0;
    Py_XSETREF(*slot, v);
    return 1;
}

/* Write the ints of k back to its object (those that changed); 0 on an error */
static int k_store(KState *k) {
    PositionObject *p = k->obj;
    PyObject *rev = k->reversed ? Py_True : Py_False;
    if (!(k_put(&p->to_act, k->to_act) && k_put(&p->need, k->need) && k_put(&p->top, k->top)
          && k_put(&p->same, k->same) && k_put(&p->last, k->last)
          && k_put(&p->passes, k->passes) && k_put(&p->passed, k->passed)))
        return 0;
    if ((p->reversed == Py_True) != k->reversed) {   /* assigned only when it toggled */
        Py_INCREF(rev);
        Py_XSETREF(p->reversed, rev);
    }
    return 1;
}

/* ncards[seat] (seat may be negative, as a Python index); -1 with an error set */
static long pos_count(KState *k, int seat) {
    PyObject *list = k->obj->ncards;
    Py_ssize_t n = PyList_GET_SIZE(list), i = seat < 0 ? seat + n : seat;
    if (i < 0 || i >= n) {
        PyErr_SetString(PyExc_IndexError, "list index out of range");
        return -1;
    }
    return k_item(list, i, "ncards");   /* read before pos_set_count replaces it */
}

static int pos_set_count(KState *k, int seat, long value) {
    PyObject *list = k->obj->ncards, *v;
    Py_ssize_t n = PyList_GET_SIZE(list), i = seat < 0 ? seat + n : seat;
    if (i < 0 || i >= n) {
        PyErr_SetString(PyExc_IndexError, "list assignment index out of range");
        return -1;
    }
    v = PyLong_FromLong(value);
    if (v == NULL) return -1;
    return PyList_SetItem(list, i, v);   /* steals v */
}

static int pos_append(PyObject *list, int value) {
    PyObject *v = PyLong_FromLong(value);
    int r;
    if (v == NULL) return -1;
    r = PyList_Append(list, v);
    Py_DECREF(v);
    return r;
}

/* The next seat clockwise from seat that holds cards; -2 on an error (at most players steps:
 * when no seat holds cards, ValueError as the Python statement raises) */
static int pos_next_with_cards(KState *k, int seat) {
    int n = k->players, s = (seat + 1) % n, i;
    long c;
    for (i = 0; i < n; i++) {
        c = pos_count(k, s);
        if (c == -1 && PyErr_Occurred()) return -2;
        if (c) return s;
        s = (s + 1) % n;
    }
    PyErr_SetString(PyExc_ValueError, "no seat holds cards, so no one can act: ncards is not a "
                    "state a deal reaches (the deal ends when one seat is left holding cards)");
    return -2;
}

static int pos_next_eligible(KState *k, int seat) {
    int n = k->players, s = (seat + 1) % n;
    long c;
    while (s != seat) {
        c = pos_count(k, s);
        if (c == -1 && PyErr_Occurred()) return -2;
        if (c && !((k->passed >> s) & 1)) return s;
        s = (s + 1) % n;
    }
    return -1;
}

static int pos_clear(KState *k, int outcome) {
    PyObject *fresh = PyList_New(0);
    int w;
    long c;
    if (fresh == NULL) return -1;
    k->need = 0;
    k->top = -1;
    k->same = 0;
    k->passes = 0;
    k->passed = 0;
    k_set_round(k, fresh);
    w = k->last;
    c = pos_count(k, w);
    if (c == -1 && PyErr_Occurred()) return -1;
    if (!c) {
        w = pos_next_with_cards(k, w);
        if (w == -2) return -1;
    }
    k->to_act = w;
    return outcome;
}

/* round_left.pop(0) (IndexError when empty, as list.pop) */
static int pos_pop_round(KState *k) {
    PyObject *rl = k->obj->round_left;
    if (PyList_GET_SIZE(rl) == 0) {
        PyErr_SetString(PyExc_IndexError, "pop from empty list");
        return -1;
    }
    if (k_item(rl, 0, "round_left") == -1 && PyErr_Occurred()) return -1;   /* a plain int */
    return PyList_SetSlice(rl, 0, 1, NULL);
}

/* round_left[0] as a seat; -2 on an error (a value that is not a seat is one) */
static int pos_round_first(KState *k) {
    long v = k_item(k->obj->round_left, 0, "round_left");
    if (v == -1 && PyErr_Occurred()) return -2;
    if (v < 0 || v >= k->players) {
        PyErr_Format(PyExc_ValueError, "round_left holds %ld, not a seat", v);
        return -2;
    }
    return (int)v;
}

static int pos_play(KState *k, int seat, int rank, int count) {
    long held = pos_count(k, seat), c;
    int same, n = k->players, i, s, nxt;
    if (held == -1 && PyErr_Occurred()) return -1;
    held -= count;
    if (pos_set_count(k, seat, held) < 0) return -1;
    if (k->need == 0) {                        /* the lead fixes the count of the pile */
        k->need = count;
        if (k->mode == 2) {
            PyObject *rl = PyList_New(0);
            if (rl == NULL) return -1;
            for (i = 1; i < n; i++) {
                s = (seat + i) % n;
                c = pos_count(k, s);
                if ((c == -1 && PyErr_Occurred()) || (c && pos_append(rl, s) < 0)) {
                    Py_DECREF(rl);
                    return -1;
                }
            }
            k_set_round(k, rl);
        }
    } else if (k->mode == 2) {
        if (pos_pop_round(k) < 0) return -1;
    }
    same = rank == k->top ? k->same + count : count;
    k->same = same;
    if (count == 4 && k->reversal) k->reversed = !k->reversed;
    k->top = rank;
    k->last = seat;
    k->passes = 0;
    if (k->mode == 0) k->passed = 0;
    if (!held) {                               /* going out: the next place, at once */
        PyObject *finish = k->obj->finish;
        if (pos_append(finish, seat) < 0) return -1;
        if (k->players - PyList_GET_SIZE(finish) == 1) {   /* one seat left: it is last */
            for (s = 0; s < n; s++) {
                c = pos_count(k, s);
                if (c == -1 && PyErr_Occurred()) return -1;
                if (c) {
                    if (pos_append(finish, s) < 0) return -1;
                    break;
                }
            }
            k->to_act = -1;
            return K_ENDED;
        }
    }
    if (same == 4 && k->lor) return pos_clear(k, K_LAST_OF_RANK);
    if (k->mode == 0) {
        s = pos_next_with_cards(k, seat);
        if (s == -2) return -1;
        k->to_act = s;
    } else if (k->mode == 1) {
        nxt = pos_next_eligible(k, seat);
        if (nxt == -2) return -1;
        if (nxt < 0) return pos_clear(k, K_ALL_PASSED);
        k->to_act = nxt;
    } else if (PyList_GET_SIZE(k->obj->round_left)) {
        s = pos_round_first(k);
        if (s == -2) return -1;
        k->to_act = s;
    } else {
        return pos_clear(k, K_ONCE_AROUND);
    }
    return K_GOES_ON;
}

static int pos_pass(KState *k, int seat) {
    int passes = k->passes + 1, s, nxt;
    k->passes = passes;
    k->passed |= 1 << seat;
    if (k->mode == 0) {        /* re-enter: every other seat with cards passed since the latest play */
        int active = k->players - (int)PyList_GET_SIZE(k->obj->finish);
        long c = pos_count(k, k->last);
        if (c == -1 && PyErr_Occurred()) return -1;
        if (passes >= (c ? active - 1 : active)) return pos_clear(k, K_ALL_PASSED);
        s = pos_next_with_cards(k, seat);
        if (s == -2) return -1;
        k->to_act = s;
    } else if (k->mode == 1) { /* sit-out: no one but the latest player still eligible */
        nxt = pos_next_eligible(k, seat);
        if (nxt == -2) return -1;
        if (nxt < 0 || nxt == k->last) return pos_clear(k, K_ALL_PASSED);
        k->to_act = nxt;
    } else {                   /* once-around: one turn each after the lead */
        if (pos_pop_round(k) < 0) return -1;
        if (!PyList_GET_SIZE(k->obj->round_left)) return pos_clear(k, K_ONCE_AROUND);
        s = pos_round_first(k);
        if (s == -2) return -1;
        k->to_act = s;
    }
    return K_GOES_ON;
}

/* An argument as a C long, read before the state is (its __index__ may run Python code) */
static int pos_long_arg(PyObject *arg, long *out) {
    *out = PyLong_AsLong(arg);
    return !(*out == -1 && PyErr_Occurred());
}

static int pos_seat_arg(KState *k, long v, int *seat) {
    if (v < 0 || v >= k->players) {
        PyErr_Format(PyExc_IndexError, "seat %ld is not a seat of a table of %d", v, k->players);
        return 0;
    }
    *seat = (int)v;
    return 1;
}

/* The end of a method: the state written back, and the answer (NULL on an error; the ints
 * are written back even then, as the Python code would have changed them up to the error) */
static PyObject *pos_done(KState *k, int out) {
    int stored = k_store(k);
    Py_XDECREF(k->dropped[0]);
    Py_XDECREF(k->dropped[1]);
    if (!stored) return NULL;
    return out < 0 && PyErr_Occurred() ? NULL : PyLong_FromLong(out);
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
    return pos_done(&k, pos_play(&k, seat, (int)rank, (int)count));
}

static PyObject *Position_pass(PositionObject *p, PyObject *arg) {
    KState k;
    int seat;
    long v;
    if (!pos_long_arg(arg, &v) || !k_load(p, &k) || !pos_seat_arg(&k, v, &seat)) return NULL;
    return pos_done(&k, pos_pass(&k, seat));
}

/* A turn-order question about seat arg (next_with_cards, next_eligible): the answer */
static PyObject *pos_turn_order(PositionObject *p, PyObject *arg, int (*ask)(KState *, int)) {
    KState k;
    int seat, s;
    long v;
    if (!pos_long_arg(arg, &v) || !k_load(p, &k) || !pos_seat_arg(&k, v, &seat)) return NULL;
    s = ask(&k, seat);
    return s == -2 ? NULL : PyLong_FromLong(s);
}

static PyObject *Position_next_with_cards(PositionObject *p, PyObject *arg) {
    return pos_turn_order(p, arg, pos_next_with_cards);
}

static PyObject *Position_next_eligible(PositionObject *p, PyObject *arg) {
    return pos_turn_order(p, arg, pos_next_eligible);
}

static PyObject *Position_clear(PositionObject *p, PyObject *arg) {
    KState k;
    long outcome = PyLong_AsLong(arg);
    if (outcome == -1 && PyErr_Occurred()) return NULL;
    if (!k_load(p, &k)) return NULL;
    return pos_done(&k, pos_clear(&k, (int)outcome));
}

static int Position_init(PositionObject *p, PyObject *args, PyObject *kwds) {
    static char *kwlist[] = {"players", "ncards", "leader", "strict", "mode", "lor", "reversal",
                             NULL};
    PyObject *players, *ncards, *leader, *strict = NULL, *mode = NULL, *lor = NULL;
    PyObject *reversal = Py_False, *list, *empty1, *empty2;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "O!OO!|$OO!OO", kwlist, &PyLong_Type, &players,
                                     &ncards, &PyLong_Type, &leader, &strict, &PyLong_Type, &mode,
                                     &lor, &reversal))
        return -1;
    if (strict == NULL || mode == NULL || lor == NULL) {
        PyErr_SetString(PyExc_TypeError, "Position() needs the keyword arguments strict, mode "
                        "and lor (mode 0, 1 or 2)");
        return -1;
    }
    {   /* plain ints everywhere (see k_int): bools and int subclasses become ints */
        long pl = PyLong_AsLong(players), le = PyLong_AsLong(leader), mo = PyLong_AsLong(mode);
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
        if (!players || !leader || !mode) {
            Py_DECREF(list); Py_XDECREF(players); Py_XDECREF(leader); Py_XDECREF(mode);
            return -1;
        }
    }
    empty1 = PyList_New(0);
    empty2 = PyList_New(0);
    if (empty1 == NULL || empty2 == NULL) {
        Py_DECREF(list); Py_XDECREF(empty1); Py_XDECREF(empty2);
        Py_DECREF(players); Py_DECREF(leader); Py_DECREF(mode);
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
    {   /* the options as bools (see k_bool) */
        int st = PyObject_IsTrue(strict), lo = PyObject_IsTrue(lor), re = PyObject_IsTrue(reversal);
        if (st < 0 || lo < 0 || re < 0) return -1;
        Py_XSETREF(p->strict, Py_NewRef(st ? Py_True : Py_False));
        Py_XSETREF(p->lor, Py_NewRef(lo ? Py_True : Py_False));
        Py_XSETREF(p->reversal, Py_NewRef(re ? Py_True : Py_False));
    }
    Py_XSETREF(p->reversed, Py_NewRef(Py_False));
    return 0;
}

#define POSITION_FIELDS(X) X(players) X(to_act) X(need) X(top) X(same) X(last) X(passes) \
    X(passed) X(mode) X(strict) X(lor) X(reversal) X(reversed) X(ncards) X(round_left) X(finish)
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
    {"lor", T_OBJECT_EX, offsetof(PositionObject, lor), 0, "last_of_rank_clears"},
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
              "lor, reversal=False).",
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)Position_init,
    .tp_dealloc = (destructor)Position_dealloc,
    .tp_methods = Position_methods,
    .tp_members = Position_members,
};
