/*
 * BENCHMARK BASELINE ONLY: the compiled kernel exactly as it was at commit f30852c, frozen so
 * that `manage.py bench_solver` can time the old kernel against the new one on the same
 * boards in one run. Nothing in the product imports it; do not fix or tune it here (the
 * live kernel is solver/engine/_kernel.c). Only the module and type names differ.
 */
/*
 * The compiled Boggle search: a depth-first walk of the board pruned by a flat trie.
 *
 * The trie is the buffer written by solver/engine/trie.py (see its docstring for the
 * layout); this file only reads it. A Kernel holds a view of that buffer (usually a
 * read-only memory map shared by every process) and a private array of "seen" stamps,
 * so a word found along several paths is reported once without writing to the trie.
 * The GIL is held for the whole search, which is what makes the private stamps safe.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define NO_WORD 0xFFFFFFFFu
#define SLOT 8          /* per cell: face length, then up to 7 symbols */
#define NBR_STRIDE 9    /* per cell: neighbour count, then up to 8 neighbours */
#define MAX_CELLS 4096
#define TABLE_SIZE 256  /* points by word length */

typedef struct {
    uint64_t mask;   /* bit s set when the child for symbol s exists */
    uint32_t first;  /* index of the first child; children are contiguous */
    uint32_t word;   /* id of the word ending here, or NO_WORD */
} Node;


typedef struct Search {
    const Node *nodes;
    const uint8_t *lengths;
    uint32_t *stamp;
    uint32_t gen;
    const uint8_t *cells;
    const uint16_t *nbrs;
    const int32_t *table;
    unsigned min_len;
    uint8_t used[MAX_CELLS];
    uint64_t first_bit[MAX_CELLS]; /* 1 << the first symbol of a cell's face, 0 if blank */
    uint32_t *out;
    size_t n_out, cap;
    long long score;
    int failed;
} Search;

typedef struct {
    PyObject_HEAD
    Py_buffer view;
    int has_view;
    const Node *nodes;
    uint32_t n_nodes;
    const uint8_t *lengths;
    uint32_t n_words;
    uint32_t *stamp;
    uint32_t gen;
    struct Search *scratch; /* reused by every call: the GIL keeps calls apart */
} Kernel;

/* The child of node for symbol sym, or 0 (the root is never a child). */
static inline uint32_t child(const Node *nodes, uint32_t node, unsigned sym) {
    uint64_t mask = nodes[node].mask;
    if (!((mask >> sym) & 1u)) return 0;
    return nodes[node].first + (uint32_t)__builtin_popcountll(mask & ((1ull << sym) - 1));
}

/* The node reached by spelling a cell's face from node, or 0. */
static inline uint32_t walk_face(const Node *nodes, uint32_t node, const uint8_t *slot) {
    unsigned len = slot[0];
    if (len == 1) return child(nodes, node, slot[1]);
    if (len == 0) return 0;
    for (unsigned i = 1; i <= len; i++) {
        node = child(nodes, node, slot[i]); /* starts at the root, which is 0 */
        if (!node) return 0;
    }
    return node;
}

static void record(Search *s, uint32_t word) {
    s->stamp[word] = s->gen;
    unsigned len = s->lengths[word];
    if (len < s->min_len) return;
    if (s->n_out == s->cap) {
        size_t cap = s->cap ? s->cap * 2 : 256;
        uint32_t *grown = realloc(s->out, cap * sizeof *grown);
        if (!grown) { s->failed = 1; return; }
        s->out = grown;
        s->cap = cap;
    }
    s->out[s->n_out++] = word;
    s->score += s->table[len];
}

static void visit(Search *s, unsigned cell, uint32_t node) {
    const Node *n = &s->nodes[node];
    uint64_t mask = n->mask;
    if (!mask) {
        if (n->word != NO_WORD && s->stamp[n->word] != s->gen) record(s, n->word);
        return;
    }
    __builtin_prefetch(&s->nodes[n->first]); /* the children are about to be read */
    if (n->word != NO_WORD && s->stamp[n->word] != s->gen) record(s, n->word);
    /* Keep the neighbours whose first letter continues a word, without a branch per
     * neighbour: which ones do is unpredictable, and mispredictions dominate otherwise. */
    const uint16_t *near = s->nbrs + (size_t)cell * NBR_STRIDE;
    unsigned todo[8], count = 0;
    for (unsigned k = 1; k <= near[0]; k++) {
        unsigned next = near[k];
        todo[count] = next;
        count += ((mask & s->first_bit[next]) != 0) & (s->used[next] == 0);
    }
    if (!count) return;
    s->used[cell] = 1;
    for (unsigned k = 0; k < count; k++) {
        unsigned next = todo[k];
        uint32_t c = walk_face(s->nodes, node, s->cells + (size_t)next * SLOT);
        if (c) visit(s, next, c);
    }
    s->used[cell] = 0;
}

/* Kernel(buffer, nodes_offset, node_count, lengths_offset, word_count) */
static int Kernel_init(Kernel *self, PyObject *args, PyObject *Py_UNUSED(kwds)) {
    Py_ssize_t nodes_off, n_nodes, lengths_off, n_words;
    if (self->has_view) {
        PyErr_SetString(PyExc_RuntimeError, "Kernel is already initialised");
        return -1;
    }
    if (!PyArg_ParseTuple(args, "y*nnnn", &self->view, &nodes_off, &n_nodes, &lengths_off,
                          &n_words))
        return -1;
    self->has_view = 1;
    Py_ssize_t size = self->view.len;
    if (nodes_off < 0 || n_nodes < 1 || n_nodes > UINT32_MAX || nodes_off % 8 ||
        nodes_off + n_nodes * (Py_ssize_t)sizeof(Node) > size || lengths_off < 0 ||
        n_words < 0 || n_words >= UINT32_MAX || lengths_off + n_words > size) {
        PyErr_SetString(PyExc_ValueError, "trie sections lie outside the buffer");
        return -1;
    }
    self->nodes = (const Node *)((const char *)self->view.buf + nodes_off);
    self->n_nodes = (uint32_t)n_nodes;
    self->lengths = (const uint8_t *)self->view.buf + lengths_off;
    self->n_words = (uint32_t)n_words;
    /* A damaged file must not send the search outside the buffer: check every link once. */
    for (uint32_t i = 0; i < self->n_nodes; i++) {
        const Node *n = &self->nodes[i];
        uint64_t end = (uint64_t)n->first + (uint64_t)__builtin_popcountll(n->mask);
        if ((n->mask && (n->first == 0 || end > self->n_nodes)) ||
            (n->word != NO_WORD && n->word >= self->n_words)) {
            PyErr_Format(PyExc_ValueError, "trie node %u is damaged", i);
            return -1;
        }
    }
    self->stamp = calloc(self->n_words ? self->n_words : 1, sizeof *self->stamp);
    if (!self->stamp) {
        PyErr_NoMemory();
        return -1;
    }
    self->gen = 0;
    self->scratch = calloc(1, sizeof *self->scratch);
    if (!self->scratch) {
        PyErr_NoMemory();
        return -1;
    }
    return 0;
}

static void Kernel_dealloc(Kernel *self) {
    free(self->stamp);
    if (self->scratch) free(self->scratch->out);
    free(self->scratch);
    if (self->has_view) PyBuffer_Release(&self->view);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static int check_board(const Py_buffer *cells, const Py_buffer *nbrs, const Py_buffer *table,
                       Py_ssize_t *n_cells) {
    if (cells->len % SLOT || cells->len / SLOT > MAX_CELLS) {
        PyErr_SetString(PyExc_ValueError, "cells must be 8 bytes per cell, at most 4096 cells");
        return -1;
    }
    Py_ssize_t n = cells->len / SLOT;
    if (nbrs->len != n * NBR_STRIDE * 2) {
        PyErr_SetString(PyExc_ValueError, "neighbour table does not match the cells");
        return -1;
    }
    if (table->len != TABLE_SIZE * 4) {
        PyErr_SetString(PyExc_ValueError, "score table must hold 256 int32 values");
        return -1;
    }
    const uint8_t *c = cells->buf;
    const uint16_t *near = nbrs->buf;
    for (Py_ssize_t i = 0; i < n; i++) {
        const uint8_t *slot = c + i * SLOT;
        if (slot[0] >= SLOT) goto bad_cell;
        for (unsigned k = 1; k <= slot[0]; k++)
            if (slot[k] >= 64) goto bad_cell;
        const uint16_t *row = near + i * NBR_STRIDE;
        if (row[0] > 8) goto bad_nbr;
        for (unsigned k = 1; k <= row[0]; k++)
            if (row[k] >= n || row[k] == i) goto bad_nbr;
    }
    *n_cells = n;
    return 0;
bad_cell:
    PyErr_SetString(PyExc_ValueError, "a cell's face is malformed");
    return -1;
bad_nbr:
    PyErr_SetString(PyExc_ValueError, "a neighbour index is out of range");
    return -1;
}

/* solve(cells, neighbours, score_table, min_length) -> (word ids as u32 bytes, score) */
static PyObject *Kernel_solve(Kernel *self, PyObject *args) {
    Py_buffer cells, nbrs, table;
    unsigned int min_len;
    Py_ssize_t n_cells;
    PyObject *result = NULL;
    if (!self->scratch) {
        PyErr_SetString(PyExc_RuntimeError, "Kernel is not initialised");
        return NULL;
    }
    if (!PyArg_ParseTuple(args, "y*y*y*I", &cells, &nbrs, &table, &min_len)) return NULL;
    if (check_board(&cells, &nbrs, &table, &n_cells) < 0) goto done;

    if (++self->gen == 0) { /* stamps wrapped: forget them all */
        memset(self->stamp, 0, self->n_words * sizeof *self->stamp);
        self->gen = 1;
    }
    Search *s = self->scratch;
    memset(s->used, 0, (size_t)n_cells);
    s->n_out = 0;
    s->score = 0;
    s->failed = 0;
    s->nodes = self->nodes;
    s->lengths = self->lengths;
    s->stamp = self->stamp;
    s->gen = self->gen;
    s->cells = cells.buf;
    s->nbrs = nbrs.buf;
    s->table = table.buf;
    s->min_len = min_len;
    for (Py_ssize_t cell = 0; cell < n_cells; cell++) {
        const uint8_t *slot = s->cells + cell * SLOT;
        s->first_bit[cell] = slot[0] ? 1ull << slot[1] : 0;
    }
    for (Py_ssize_t cell = 0; cell < n_cells && !s->failed; cell++) {
        uint32_t start = walk_face(s->nodes, 0, s->cells + cell * SLOT);
        if (start) visit(s, (unsigned)cell, start);
    }
    if (s->failed) {
        PyErr_NoMemory();
    } else {
        PyObject *ids = PyBytes_FromStringAndSize((const char *)s->out,
                                                  (Py_ssize_t)(s->n_out * sizeof(uint32_t)));
        if (ids) result = Py_BuildValue("(NL)", ids, s->score);
    }
done:
    PyBuffer_Release(&cells);
    PyBuffer_Release(&nbrs);
    PyBuffer_Release(&table);
    return result;
}

static PyMethodDef Kernel_methods[] = {
    {"solve", (PyCFunction)Kernel_solve, METH_VARARGS,
     "solve(cells, neighbours, score_table, min_length) -> (word ids as u32 bytes, score)"},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject KernelType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "solver.bench_baseline._kernel_v1.Kernel",
    .tp_doc = "The compiled search over one flat trie buffer.",
    .tp_basicsize = sizeof(Kernel),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)Kernel_init,
    .tp_dealloc = (destructor)Kernel_dealloc,
    .tp_methods = Kernel_methods,
};

static struct PyModuleDef kernel_module = {
    .m_base = PyModuleDef_HEAD_INIT,
    .m_name = "_kernel_v1",
    .m_doc = "Compiled Boggle search over a flat trie.",
    .m_size = -1,
};

PyMODINIT_FUNC PyInit__kernel_v1(void) {
    if (PyType_Ready(&KernelType) < 0) return NULL;
    PyObject *m = PyModule_Create(&kernel_module);
    if (!m) return NULL;
    Py_INCREF(&KernelType);
    if (PyModule_AddObject(m, "Kernel", (PyObject *)&KernelType) < 0) {
        Py_DECREF(&KernelType);
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
