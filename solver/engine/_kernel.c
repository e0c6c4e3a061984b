/*
 * The compiled Boggle search: a depth-first walk of the board pruned by a trie.
 *
 * The trie is the buffer written by solver/engine/trie.py (see its docstring for the
 * layout). A Kernel reads that buffer once, when it is made: it checks every link (a damaged
 * file must never send the search outside its memory) and copies the nodes into a private,
 * smaller form that the search walks (docs/kernel.md says why):
 *
 * - 12 bytes a node (u32 child mask, u32 first child, u32 mark) when the alphabet has at
 *   most 31 letters, 16 bytes (u64 mask, u32 first child, u32 mark) otherwise. The mask's
 *   top bit says that a word ends at the node, so reaching a node reads one record.
 * - the mark: a word found along several paths counts once, without writing to the shared
 *   (usually memory-mapped, read-only) trie; it sits in the cache line just read.
 *
 * A word's length is the depth of its node, which the search carries along, so scoring
 * needs no lookup. Word ids (only for solve()) come from the original buffer, after the
 * search.
 *
 * Two entry points share one search: Kernel.solve() answers one board with word ids, and a
 * Scorer (Kernel.scorer()) scores a whole batch of boards per call, writing three numbers per
 * board into an array, with faces and neighbours prepared once. The GIL is held for every
 * search, which is what makes the private marks safe.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define NO_WORD 0xFFFFFFFFu
#define SLOT 8          /* a face as Python passes it: its length, then up to 7 symbols */
#define NBR_STRIDE 9    /* per cell: neighbour count, then up to 8 neighbours */
#define MAX_CELLS 4096
#define TABLE_SIZE 256  /* points by word length */
#define MAX_DEPTH 255   /* words have at most 255 letters (one byte in the trie) */

/* The trie node as trie.py writes it. */
typedef struct {
    uint64_t mask;   /* bit s set when the child for symbol s exists */
    uint32_t first;  /* index of the first child; children are contiguous */
    uint32_t word;   /* id of the word ending here, or NO_WORD */
} FileNode;

/* The private copies the search walks: the top bit of the mask marks a word's end. */
typedef struct {
    uint32_t mask;
    uint32_t first;
    uint32_t mark;
} Node32;

typedef struct {
    uint64_t mask;
    uint32_t first;
    uint32_t mark;
} Node64;

#define WORD32 (1u << 31)
#define WORD64 (1ull << 63)

/* A face ready for the search: its symbols and the child-mask bit of the first one. A face
 * no word can use (a blank, or a letter outside the alphabet) has len 0 and bit 0. */
typedef struct {
    uint64_t bit;
    uint8_t len;
    uint8_t sym[7];
} Face;

typedef struct {
    void *nodes;
    uint32_t gen;
    uint32_t sink;            /* where marks that must not change are written */
    const FileNode *file;     /* for word ids */
    const Face *cells;        /* one per cell of the board being searched */
    const uint16_t *nbrs;
    const int32_t *table;
    unsigned min_len, long_len;
    long long score, words, longs;
    int want_ids, failed;
    uint32_t *out;
    size_t n_out, cap;
    uint8_t used[MAX_CELLS];  /* for boards of more than 64 cells */
    /* For boards of up to 64 cells, sets of cells as bits: */
    uint64_t near_cells[64];  /* the neighbours of each cell (fixed by the board's shape) */
    uint64_t near_syms[64];   /* the first symbols of the faces around each cell */
    uint64_t cells_with[64];  /* the cells whose face begins with each symbol */
} Search;

typedef struct {
    PyObject_HEAD
    Py_buffer view;
    int has_view;
    const FileNode *file;
    uint32_t n_nodes;
    uint32_t n_words;
    int narrow;               /* nodes are Node32 */
    unsigned sym_limit;       /* symbols below this can be followed */
    void *nodes;              /* Node32 or Node64, private */
    uint32_t gen;
    Search *scratch;          /* reused by every call: the GIL keeps calls apart */
} Kernel;

/* ---- the search ---------------------------------------------------------------------- */

/* Make room for more found nodes; on failure, flag it and keep writing over the first. */
static int grow_out(Search *s) {
    size_t cap = s->cap ? s->cap * 2 : 256;
    uint32_t *grown = realloc(s->out, cap * sizeof *grown);
    if (!grown) {
        s->failed = 1;
        s->n_out = 0;
        return -1;
    }
    s->out = grown;
    s->cap = cap;
    return 0;
}

/* A node was reached at this depth: count its word (if is_word) unless this board has
 * already counted it. Written without branches: whether a node ends a word, and whether the
 * word is new, are too unpredictable to guess. */
static inline void reached(Search *s, uint32_t *mark, unsigned is_word, uint32_t node,
                           unsigned depth) {
    unsigned fresh = is_word & (*mark != s->gen);
    uint32_t *dest = fresh ? mark : &s->sink;
    *dest = s->gen;
    unsigned counted = fresh & (depth >= s->min_len);
    s->words += counted;
    s->score += s->table[depth] & -(int32_t)counted;
    s->longs += counted & (depth >= s->long_len);
    if (s->want_ids) {
        /* The node, not its word id: reading ids from the (large) file nodes here would miss
         * the cache once a word; solve() reads them all after the search. There is always
         * room for one more. */
        s->out[s->n_out] = node;
        s->n_out += counted;
        if (s->n_out == s->cap) grow_out(s);
    }
}

/* The per-board sets of cells that dfs_bits reads (near_cells is set with the shape). */
static void prepare_bits(Search *s, unsigned n_cells) {
    memset(s->cells_with, 0, sizeof s->cells_with);
    for (unsigned cell = 0; cell < n_cells; cell++) {
        const Face *f = &s->cells[cell];
        if (f->bit) s->cells_with[__builtin_ctzll(f->bit)] |= 1ull << cell;
    }
    for (unsigned cell = 0; cell < n_cells; cell++) {
        const uint16_t *near = s->nbrs + (size_t)cell * NBR_STRIDE;
        uint64_t syms = 0;
        for (unsigned k = 1; k <= near[0]; k++) syms |= s->cells[near[k]].bit;
        s->near_syms[cell] = syms;
    }
}

/* The neighbours of each cell as bits, for boards of up to 64 cells. */
static void prepare_shape(Search *s, unsigned n_cells) {
    for (unsigned cell = 0; cell < n_cells && cell < 64; cell++) {
        const uint16_t *near = s->nbrs + (size_t)cell * NBR_STRIDE;
        uint64_t bits = 0;
        for (unsigned k = 1; k <= near[0]; k++) bits |= 1ull << near[k];
        s->near_cells[cell] = bits;
    }
}

/*
 * One search per node width, written once as a macro. dfs_bits (boards of up to 64 cells)
 * keeps the cells in use as bits of a register and finds the next cells as bit sets: the
 * cells showing each wanted letter, within the neighbours, not in use. dfs_bytes (larger
 * boards) keeps them in Search.used and gathers the neighbours whose first letter continues
 * a word without a branch per neighbour: which ones do is unpredictable, and mispredictions
 * dominate otherwise.
 */
#define DEFINE_SEARCH(W, NODE, MASK, WORD_BIT)                                                \
    /* Follow a face's symbols after the first from node c; 0 when the way ends. */          \
    static inline uint32_t rest_##W(const NODE *nodes, uint32_t c, const Face *f) {           \
        for (unsigned i = 1; i < f->len; i++) {                                               \
            MASK m = nodes[c].mask;                                                           \
            unsigned sym = f->sym[i];                                                         \
            if (!((m >> sym) & 1)) return 0;                                                  \
            c = nodes[c].first + (uint32_t)__builtin_popcountll(m & ((((MASK)1) << sym) - 1)); \
        }                                                                                     \
        return c;                                                                             \
    }                                                                                         \
                                                                                              \
    /* Arrive at node on cell: count its word, and return the letters that could follow it \
     * from the faces around the cell (0 when the walk ends here). */                        \
    static inline MASK arrive_##W(Search *s, NODE *n, uint32_t node, unsigned cell,          \
                                  unsigned depth) {                                           \
        MASK mask = n->mask;                                                                  \
        reached(s, &n->mark, (unsigned)(mask >> (sizeof(MASK) * 8 - 1)), node, depth);        \
        return mask & ~WORD_BIT & (MASK)s->near_syms[cell];                                   \
    }                                                                                         \
                                                                                              \
    /* Continue from node on cell, whose word (if any) is counted and which has children     \
     * (wanted, a subset of its mask) that faces around the cell may spell. The next node is  \
     * read here, before the call, so a walk that ends there costs no call. */              \
    static void dfs_bits_##W(Search *s, unsigned cell, uint32_t node, MASK wanted,            \
                             unsigned depth, uint64_t used) {                                 \
        NODE *nodes = s->nodes;                                                               \
        MASK mask = nodes[node].mask & ~WORD_BIT;                                             \
        uint32_t first = nodes[node].first;                                                   \
        used |= 1ull << cell;                                                                 \
        uint64_t todo = 0;                                                                    \
        do {                                                                                  \
            todo |= s->cells_with[__builtin_ctzll(wanted)];                                   \
            wanted &= wanted - 1;                                                             \
        } while (wanted);                                                                     \
        todo &= s->near_cells[cell] & ~used;                                                  \
        while (todo) {                                                                        \
            unsigned next = (unsigned)__builtin_ctzll(todo);                                  \
            todo &= todo - 1;                                                                 \
            const Face *f = &s->cells[next];                                                  \
            uint32_t c = first + (uint32_t)__builtin_popcountll(mask & ((MASK)f->bit - 1));   \
            if (f->len > 1 && !(c = rest_##W(nodes, c, f))) continue;                         \
            MASK more = arrive_##W(s, &nodes[c], c, next, depth + f->len);                    \
            if (more) dfs_bits_##W(s, next, c, more, depth + f->len, used);                   \
        }                                                                                     \
    }                                                                                         \
                                                                                              \
    static void dfs_bytes_##W(Search *s, unsigned cell, uint32_t node, unsigned depth) {      \
        NODE *nodes = s->nodes;                                                               \
        MASK mask = nodes[node].mask;                                                         \
        if (mask & WORD_BIT) {                                                                \
            reached(s, &nodes[node].mark, 1, node, depth);                                    \
            mask ^= WORD_BIT;                                                                 \
        }                                                                                     \
        if (!mask) return;                                                                    \
        uint32_t first = nodes[node].first;                                                   \
        const uint16_t *near = s->nbrs + (size_t)cell * NBR_STRIDE;                           \
        const Face *cells = s->cells;                                                         \
        unsigned todo[8], count = 0;                                                          \
        for (unsigned k = 1; k <= near[0]; k++) {                                             \
            unsigned next = near[k];                                                          \
            todo[count] = next;                                                               \
            count += ((mask & (MASK)cells[next].bit) != 0) & (s->used[next] == 0);            \
        }                                                                                     \
        if (!count) return;                                                                   \
        s->used[cell] = 1;                                                                    \
        for (unsigned k = 0; k < count; k++) {                                                \
            const Face *f = &cells[todo[k]];                                                  \
            uint32_t c = first + (uint32_t)__builtin_popcountll(mask & ((MASK)f->bit - 1));   \
            if (f->len > 1 && !(c = rest_##W(nodes, c, f))) continue;                         \
            dfs_bytes_##W(s, todo[k], c, depth + f->len);                                     \
        }                                                                                     \
        s->used[cell] = 0;                                                                    \
    }                                                                                         \
                                                                                              \
    /* Every word on the board in s->cells, from every starting cell. */                     \
    static void board_##W(Search *s, unsigned n_cells) {                                      \
        NODE *nodes = s->nodes;                                                               \
        MASK root = nodes[0].mask & ~WORD_BIT;                                                \
        if (n_cells > 64)                                                                     \
            memset(s->used, 0, n_cells);                                                      \
        else                                                                                  \
            prepare_bits(s, n_cells);                                                         \
        for (unsigned cell = 0; cell < n_cells; cell++) {                                     \
            const Face *f = &s->cells[cell];                                                  \
            if (!(root & (MASK)f->bit)) continue;                                             \
            uint32_t c = nodes[0].first +                                                     \
                         (uint32_t)__builtin_popcountll(root & ((MASK)f->bit - 1));           \
            if (f->len > 1 && !(c = rest_##W(nodes, c, f))) continue;                         \
            if (n_cells <= 64) {                                                              \
                MASK more = arrive_##W(s, &nodes[c], c, cell, f->len);                        \
                if (more) dfs_bits_##W(s, cell, c, more, f->len, 0);                          \
            } else                                                                            \
                dfs_bytes_##W(s, cell, c, f->len);                                            \
        }                                                                                     \
    }

DEFINE_SEARCH(32, Node32, uint32_t, WORD32)
DEFINE_SEARCH(64, Node64, uint64_t, WORD64)

/* Start a board: a new generation of marks (all forgotten when the counter wraps). */
static void begin_board(Kernel *k, Search *s) {
    if (++k->gen == 0) {
        for (uint32_t i = 0; i < k->n_nodes; i++) {
            if (k->narrow)
                ((Node32 *)k->nodes)[i].mark = 0;
            else
                ((Node64 *)k->nodes)[i].mark = 0;
        }
        k->gen = 1;
    }
    s->gen = k->gen;
    s->score = s->words = s->longs = 0;
}

static void search_board(Kernel *k, Search *s, unsigned n_cells) {
    begin_board(k, s);
    if (k->narrow)
        board_32(s, n_cells);
    else
        board_64(s, n_cells);
}

/* A face for the search from a Python slot (length, symbols); checked by the caller. */
static Face make_face(const Kernel *k, const uint8_t *slot) {
    Face f;
    memset(&f, 0, sizeof f);
    unsigned len = slot[0];
    for (unsigned i = 1; i <= len; i++)
        if (slot[i] >= k->sym_limit) return f; /* no word has this letter: like a blank */
    f.len = (uint8_t)len;
    memcpy(f.sym, slot + 1, len);
    if (len) f.bit = 1ull << slot[1];
    return f;
}

/* ---- Kernel ---------------------------------------------------------------------------- */

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
    if (nodes_off < 0 || n_nodes < 1 || n_nodes > UINT32_MAX / 2 || nodes_off % 8 ||
        nodes_off > size || n_nodes > (size - nodes_off) / (Py_ssize_t)sizeof(FileNode) ||
        lengths_off < 0 || n_words < 0 || n_words >= UINT32_MAX || lengths_off > size ||
        n_words > size - lengths_off) {
        PyErr_SetString(PyExc_ValueError, "trie sections lie outside the buffer");
        return -1;
    }
    const FileNode *file = (const FileNode *)((const char *)self->view.buf + nodes_off);
    uint32_t n = (uint32_t)n_nodes;
    /* A damaged file must not send the search outside its memory. Check every link once: the
     * children of successive nodes follow each other with no gap or overlap, each after its
     * parent (so the nodes form a tree), no deeper than a word can be long. */
    uint8_t *depth = malloc(n);
    if (!depth) {
        PyErr_NoMemory();
        return -1;
    }
    uint64_t all = 0, next_child = 1;
    depth[0] = 0;
    for (uint32_t i = 0; i < n; i++) {
        const FileNode *f = &file[i];
        unsigned kids = (unsigned)__builtin_popcountll(f->mask);
        int bad = (f->word != NO_WORD && f->word >= n_words) || (f->mask >> 63);
        if (f->mask) {
            bad |= f->first != next_child || f->first <= i || next_child + kids > n ||
                   depth[i] >= MAX_DEPTH;
            if (!bad)
                for (unsigned c = 0; c < kids; c++) depth[f->first + c] = depth[i] + 1;
            next_child += kids;
        }
        if (bad) {
            free(depth);
            PyErr_Format(PyExc_ValueError, "trie node %u is damaged", i);
            return -1;
        }
        all |= f->mask;
    }
    free(depth);
    if (next_child != n) {
        PyErr_SetString(PyExc_ValueError, "trie nodes are damaged: some belong to no parent");
        return -1;
    }
    self->file = file;
    self->n_nodes = n;
    self->n_words = (uint32_t)n_words;
    self->narrow = (all >> 31) == 0;
    self->sym_limit = self->narrow ? 31 : 63;
    size_t node_size = self->narrow ? sizeof(Node32) : sizeof(Node64);
    self->nodes = malloc((size_t)n * node_size);
    self->scratch = calloc(1, sizeof *self->scratch);
    if (!self->nodes || !self->scratch) {
        PyErr_NoMemory();
        return -1;
    }
    for (uint32_t i = 0; i < n; i++) {
        const FileNode *f = &file[i];
        if (self->narrow) {
            Node32 *d = (Node32 *)self->nodes + i;
            d->mask = (uint32_t)f->mask | (f->word != NO_WORD ? WORD32 : 0);
            d->first = f->mask ? f->first : 0;
            d->mark = 0;
        } else {
            Node64 *d = (Node64 *)self->nodes + i;
            d->mask = f->mask | (f->word != NO_WORD ? WORD64 : 0);
            d->first = f->mask ? f->first : 0;
            d->mark = 0;
        }
    }
    Search *s = self->scratch;
    s->nodes = self->nodes;
    s->file = file;
    self->gen = 0;
    return 0;
}

static void Kernel_dealloc(Kernel *self) {
    free(self->nodes);
    if (self->scratch) free(self->scratch->out);
    free(self->scratch);
    if (self->has_view) PyBuffer_Release(&self->view);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static int check_ready(Kernel *self) {
    if (!self->scratch || !self->nodes) {
        PyErr_SetString(PyExc_RuntimeError, "Kernel is not initialised");
        return -1;
    }
    return 0;
}

static int check_slots(const Py_buffer *slots, Py_ssize_t max_slots, const char *what) {
    if (slots->len % SLOT || slots->len / SLOT > max_slots) {
        PyErr_Format(PyExc_ValueError, "%s must be 8 bytes each, at most %zd of them", what,
                     max_slots);
        return -1;
    }
    const uint8_t *c = slots->buf;
    for (Py_ssize_t i = 0; i < slots->len / SLOT; i++) {
        const uint8_t *slot = c + i * SLOT;
        if (slot[0] >= SLOT) goto bad;
        for (unsigned k = 1; k <= slot[0]; k++)
            if (slot[k] >= 64) goto bad;
    }
    return 0;
bad:
    PyErr_SetString(PyExc_ValueError, "a cell's face is malformed");
    return -1;
}

static int check_rules(const Py_buffer *nbrs, Py_ssize_t n, const Py_buffer *table) {
    if (nbrs->len != n * NBR_STRIDE * 2) {
        PyErr_SetString(PyExc_ValueError, "neighbour table does not match the cells");
        return -1;
    }
    if (table->len != TABLE_SIZE * 4) {
        PyErr_SetString(PyExc_ValueError, "score table must hold 256 int32 values");
        return -1;
    }
    const uint16_t *near = nbrs->buf;
    for (Py_ssize_t i = 0; i < n; i++) {
        const uint16_t *row = near + i * NBR_STRIDE;
        if (row[0] > 8) goto bad;
        for (unsigned k = 1; k <= row[0]; k++)
            if (row[k] >= n || row[k] == i) goto bad;
    }
    return 0;
bad:
    PyErr_SetString(PyExc_ValueError, "a neighbour index is out of range");
    return -1;
}

/* solve(cells, neighbours, score_table, min_length) -> (word ids as u32 bytes, score) */
static PyObject *Kernel_solve(Kernel *self, PyObject *args) {
    Py_buffer cells, nbrs, table;
    unsigned int min_len;
    PyObject *result = NULL;
    Face *faces = NULL;
    if (check_ready(self) < 0) return NULL;
    if (!PyArg_ParseTuple(args, "y*y*y*I", &cells, &nbrs, &table, &min_len)) return NULL;
    if (check_slots(&cells, MAX_CELLS, "cells") < 0) goto done;
    Py_ssize_t n_cells = cells.len / SLOT;
    if (check_rules(&nbrs, n_cells, &table) < 0) goto done;
    faces = malloc((size_t)(n_cells ? n_cells : 1) * sizeof *faces);
    if (!faces) {
        PyErr_NoMemory();
        goto done;
    }
    for (Py_ssize_t i = 0; i < n_cells; i++)
        faces[i] = make_face(self, (const uint8_t *)cells.buf + i * SLOT);
    Search *s = self->scratch;
    s->cells = faces;
    s->nbrs = nbrs.buf;
    prepare_shape(s, (unsigned)n_cells);
    s->table = table.buf;
    s->min_len = min_len;
    s->long_len = UINT32_MAX;
    s->want_ids = 1;
    s->failed = 0;
    s->n_out = 0;
    if (!s->cap) grow_out(s);
    if (!s->failed) search_board(self, s, (unsigned)n_cells);
    if (s->failed) {
        PyErr_NoMemory();
    } else {
        for (size_t i = 0; i < s->n_out; i++) s->out[i] = s->file[s->out[i]].word;
        PyObject *ids = PyBytes_FromStringAndSize((const char *)s->out,
                                                  (Py_ssize_t)(s->n_out * sizeof(uint32_t)));
        if (ids) result = Py_BuildValue("(NL)", ids, s->score);
    }
done:
    free(faces);
    PyBuffer_Release(&cells);
    PyBuffer_Release(&nbrs);
    PyBuffer_Release(&table);
    return result;
}

/* ---- Scorer: batches of boards of one shape ------------------------------------------- */

typedef struct {
    PyObject_HEAD
    Kernel *kernel;            /* a strong reference */
    unsigned n_cells, n_faces;
    unsigned min_len, long_len;
    Face faces[256];           /* by face index, as the boards' bytes name them */
    Face *board;               /* the board being searched, one face per cell */
    uint16_t *nbrs;
    int32_t table[TABLE_SIZE];
} Scorer;

static PyTypeObject ScorerType;

/* scorer(faces, neighbours, score_table, min_length, long_length) -> Scorer */
static PyObject *Kernel_scorer(Kernel *self, PyObject *args) {
    Py_buffer slots, nbrs, table;
    unsigned int min_len, long_len;
    Scorer *sc = NULL;
    if (check_ready(self) < 0) return NULL;
    if (!PyArg_ParseTuple(args, "y*y*y*II", &slots, &nbrs, &table, &min_len, &long_len))
        return NULL;
    if (check_slots(&slots, 256, "faces") < 0) goto done;
    if (slots.len == 0) {
        PyErr_SetString(PyExc_ValueError, "a scorer needs at least one face");
        goto done;
    }
    Py_ssize_t n_cells = nbrs.len / (NBR_STRIDE * 2);
    if (n_cells < 1 || n_cells > MAX_CELLS) {
        PyErr_SetString(PyExc_ValueError, "neighbour table does not match the cells");
        goto done;
    }
    if (check_rules(&nbrs, n_cells, &table) < 0) goto done;
    sc = PyObject_New(Scorer, &ScorerType);
    if (!sc) goto done;
    sc->board = malloc((size_t)n_cells * sizeof *sc->board);
    sc->nbrs = malloc((size_t)nbrs.len);
    Py_INCREF(self);
    sc->kernel = self;
    if (!sc->board || !sc->nbrs) {
        Py_DECREF(sc);
        sc = NULL;
        PyErr_NoMemory();
        goto done;
    }
    memcpy(sc->nbrs, nbrs.buf, (size_t)nbrs.len);
    memcpy(sc->table, table.buf, sizeof sc->table);
    sc->n_cells = (unsigned)n_cells;
    sc->n_faces = (unsigned)(slots.len / SLOT);
    sc->min_len = min_len;
    sc->long_len = long_len ? long_len : UINT32_MAX;
    memset(sc->faces, 0, sizeof sc->faces);
    for (unsigned i = 0; i < sc->n_faces; i++)
        sc->faces[i] = make_face(self, (const uint8_t *)slots.buf + (size_t)i * SLOT);
done:
    PyBuffer_Release(&slots);
    PyBuffer_Release(&nbrs);
    PyBuffer_Release(&table);
    return (PyObject *)sc;
}

static void Scorer_dealloc(Scorer *self) {
    free(self->board);
    free(self->nbrs);
    Py_XDECREF(self->kernel);
    PyObject_Free(self);
}

/* score(boards, out): three int64 per board (score, words, long words) written into out. */
static PyObject *Scorer_score(Scorer *self, PyObject *args) {
    Py_buffer boards, out;
    PyObject *result = NULL, *target;
    if (!PyArg_ParseTuple(args, "y*O", &boards, &target)) return NULL;
    /* The answer is written through int64_t pointers: the buffer must hold aligned,
     * contiguous signed 64-bit integers, not merely 8-byte items (doubles, say). */
    if (PyObject_GetBuffer(target, &out, PyBUF_WRITABLE | PyBUF_FORMAT | PyBUF_C_CONTIGUOUS) <
        0) {
        PyBuffer_Release(&boards);
        return NULL;
    }
    const char *fmt = out.format ? out.format : "B";
    if (*fmt == '@' || *fmt == '=') fmt++;
    if (out.itemsize != 8 || !(strcmp(fmt, "q") == 0 || strcmp(fmt, "l") == 0) ||
        (out.len && ((uintptr_t)out.buf & 7u))) {
        PyErr_SetString(PyExc_ValueError,
                        "the output must be an aligned array of int64 ('q') values");
        goto done;
    }
    size_t n_cells = self->n_cells;
    if (boards.len % (Py_ssize_t)n_cells) {
        PyErr_Format(PyExc_ValueError, "a batch holds whole boards of %zu bytes each", n_cells);
        goto done;
    }
    size_t n_boards = (size_t)boards.len / n_cells;
    if ((size_t)out.len != n_boards * 3 * sizeof(int64_t)) {
        PyErr_SetString(PyExc_ValueError, "the output needs three int64 values per board");
        goto done;
    }
    const uint8_t *bytes = boards.buf;
    for (Py_ssize_t i = 0; i < boards.len; i++) {
        if (bytes[i] >= self->n_faces) {
            PyErr_Format(PyExc_ValueError, "board %zd names face %u; the scorer has %u faces",
                         i / (Py_ssize_t)n_cells, bytes[i], self->n_faces);
            goto done;
        }
    }
    Kernel *k = self->kernel;
    Search *s = k->scratch;
    s->cells = self->board;
    s->nbrs = self->nbrs;
    prepare_shape(s, (unsigned)n_cells);
    s->table = self->table;
    s->min_len = self->min_len;
    s->long_len = self->long_len;
    s->want_ids = 0;
    int64_t *dest = out.buf;
    for (size_t b = 0; b < n_boards; b++, bytes += n_cells, dest += 3) {
        for (size_t i = 0; i < n_cells; i++) self->board[i] = self->faces[bytes[i]];
        search_board(k, s, (unsigned)n_cells);
        dest[0] = s->score;
        dest[1] = s->words;
        dest[2] = s->longs;
    }
    Py_INCREF(Py_None);
    result = Py_None;
done:
    PyBuffer_Release(&boards);
    PyBuffer_Release(&out);
    return result;
}

static PyMethodDef Scorer_methods[] = {
    {"score", (PyCFunction)Scorer_score, METH_VARARGS,
     "score(boards, out): score, words and long words per board, as int64, into out"},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject ScorerType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "solver.engine._kernel.Scorer",
    .tp_doc = "Scores batches of boards of one shape; made by Kernel.scorer().",
    .tp_basicsize = sizeof(Scorer),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_dealloc = (destructor)Scorer_dealloc,
    .tp_methods = Scorer_methods,
};

/* ---- Bounder: an upper bound on the best score of a class of boards ------------------- */

/*
 * A class of boards gives each cell a set of faces it may show (as bits over the bounder's
 * faces, at most 64 of them, no two beginning with the same symbol). The bound is the
 * "max/no-mark" bound: walk every path of the board as the search does, and wherever the
 * walk enters a cell whose face is not settled, follow each face it may show and keep only
 * the best of what those continuations score; add up what the paths score, counting a word
 * once per path that spells it. Every board of the class scores at most that much: on any
 * one board each path shows one face per cell, which is one of the continuations that were
 * maximised over, and a word counts once however many paths spell it. The bound can be far
 * above the best board (two paths may take different faces for the same cell), but it is
 * cheap, and exact enough once most cells are settled for the prover to split classes until
 * their bounds fall below the target (solver/engine/prover.py).
 *
 * bound_split(masks, cell) gives, in one walk, the bound of each class that settling `cell`
 * to one of its faces makes: the walk carries one total per face of that cell, and a step
 * into the cell itself adds only to its own face's total.
 */

#define MAX_SPLIT 64

typedef struct {
    PyObject_HEAD
    Kernel *kernel;              /* a strong reference */
    unsigned n_cells, n_faces;
    unsigned min_len;
    Face faces[64];              /* by face index, as the class masks name them */
    uint8_t face_of_sym[64];     /* the face whose first symbol this is (0xFF: none) */
    uint64_t near_cells[64];
    int32_t table[TABLE_SIZE];
    /* set per call */
    uint64_t syms[64];           /* per cell: the first symbols of the faces it may show */
    uint64_t settled;            /* the cells that may show one face only */
    uint32_t gen;                /* the walk's generation of marks */
    unsigned split_cell;         /* the cell bound_split settles */
    unsigned n_split;            /* how many faces it may show */
    uint8_t split_index[64];     /* a symbol's place among them */
    long long visits;            /* nodes reached, for the prover's figures */
} Bounder;

static PyTypeObject BounderType;

#define DEFINE_BOUND(W, NODE, MASK, WORD_BIT)                                                 \
    /* The points of a word reached on a path: once a walk, when every cell of the path is   \
     * settled (the word is then on every board of the class), else once a path. */          \
    static inline int64_t word_points_##W(Bounder *b, NODE *n, MASK is_word, unsigned depth, \
                                          uint64_t used) {                                    \
        if (!is_word || depth < b->min_len) return 0;                                         \
        if (used & ~b->settled) return b->table[depth];                                       \
        if (n->mark == b->gen) return 0;                                                      \
        n->mark = b->gen;                                                                     \
        return b->table[depth];                                                               \
    }                                                                                         \
                                                                                              \
    /* The most the paths from node on cell (node reached there, cells in used) can score. */ \
    static int64_t bound_from_##W(Bounder *b, NODE *nodes, unsigned cell, uint32_t node,     \
                                  unsigned depth, uint64_t used) {                            \
        MASK mask = nodes[node].mask;                                                         \
        int64_t total = word_points_##W(b, &nodes[node], mask & WORD_BIT, depth, used);        \
        b->visits++;                                                                          \
        mask &= ~WORD_BIT;                                                                    \
        if (!mask) return total;                                                              \
        uint32_t first = nodes[node].first;                                                   \
        uint64_t todo = b->near_cells[cell] & ~used;                                          \
        while (todo) {                                                                        \
            unsigned next = (unsigned)__builtin_ctzll(todo);                                  \
            todo &= todo - 1;                                                                 \
            MASK wanted = mask & (MASK)b->syms[next];                                         \
            int64_t best = 0;                                                                 \
            while (wanted) {                                                                  \
                unsigned sym = (unsigned)__builtin_ctzll(wanted);                             \
                wanted &= wanted - 1;                                                         \
                const Face *f = &b->faces[b->face_of_sym[sym]];                               \
                uint32_t c = first + (uint32_t)__builtin_popcountll(mask & ((((MASK)1) << sym) - 1)); \
                if (f->len > 1 && !(c = rest_##W(nodes, c, f))) continue;                     \
                int64_t v = bound_from_##W(b, nodes, next, c, depth + f->len,                 \
                                           used | (1ull << next));                            \
                if (v > best) best = v;                                                       \
            }                                                                                 \
            total += best;                                                                    \
        }                                                                                     \
        return total;                                                                         \
    }                                                                                         \
                                                                                              \
    /* The same with one total per face of the split cell (not yet in used): out[i] is the   \
     * bound when the split cell shows its i-th face. */                                     \
    static void split_from_##W(Bounder *b, NODE *nodes, unsigned cell, uint32_t node,        \
                               unsigned depth, uint64_t used, int64_t *out) {                 \
        MASK mask = nodes[node].mask;                                                         \
        int64_t here = word_points_##W(b, &nodes[node], mask & WORD_BIT, depth, used);         \
        unsigned n = b->n_split;                                                              \
        b->visits++;                                                                          \
        for (unsigned i = 0; i < n; i++) out[i] = here;                                       \
        mask &= ~WORD_BIT;                                                                    \
        if (!mask) return;                                                                    \
        uint32_t first = nodes[node].first;                                                   \
        uint64_t todo = b->near_cells[cell] & ~used;                                          \
        int64_t best[MAX_SPLIT], v[MAX_SPLIT];                                                \
        while (todo) {                                                                        \
            unsigned next = (unsigned)__builtin_ctzll(todo);                                  \
            todo &= todo - 1;                                                                 \
            MASK wanted = mask & (MASK)b->syms[next];                                         \
            if (!wanted) continue;                                                            \
            for (unsigned i = 0; i < n; i++) best[i] = 0;                                     \
            while (wanted) {                                                                  \
                unsigned sym = (unsigned)__builtin_ctzll(wanted);                             \
                wanted &= wanted - 1;                                                         \
                const Face *f = &b->faces[b->face_of_sym[sym]];                               \
                uint32_t c = first + (uint32_t)__builtin_popcountll(mask & ((((MASK)1) << sym) - 1)); \
                if (f->len > 1 && !(c = rest_##W(nodes, c, f))) continue;                     \
                uint64_t now = used | (1ull << next);                                         \
                if (next == b->split_cell) {                                                  \
                    /* only the classes where the cell shows this face take this way */       \
                    int64_t x = bound_from_##W(b, nodes, next, c, depth + f->len, now);       \
                    unsigned i = b->split_index[sym];                                         \
                    if (x > best[i]) best[i] = x;                                             \
                } else {                                                                      \
                    split_from_##W(b, nodes, next, c, depth + f->len, now, v);                \
                    for (unsigned i = 0; i < n; i++)                                          \
                        if (v[i] > best[i]) best[i] = v[i];                                   \
                }                                                                             \
            }                                                                                 \
            for (unsigned i = 0; i < n; i++) out[i] += best[i];                               \
        }                                                                                     \
    }                                                                                         \
                                                                                              \
    /* The bound of the class (split < 0), or of each class settling the split cell. */       \
    static void class_bound_##W(Bounder *b, int split, int64_t *out) {                        \
        NODE *nodes = b->kernel->nodes;                                                       \
        MASK root = nodes[0].mask & ~WORD_BIT;                                                \
        unsigned n = split < 0 ? 1 : b->n_split;                                              \
        begin_board(b->kernel, b->kernel->scratch); /* a new generation of marks */           \
        b->gen = b->kernel->gen;                                                              \
        int64_t v[MAX_SPLIT];                                                                 \
        for (unsigned i = 0; i < n; i++) out[i] = 0;                                          \
        for (unsigned cell = 0; cell < b->n_cells; cell++) {                                  \
            MASK wanted = root & (MASK)b->syms[cell];                                         \
            int64_t best[MAX_SPLIT];                                                          \
            for (unsigned i = 0; i < n; i++) best[i] = 0;                                     \
            while (wanted) {                                                                  \
                unsigned sym = (unsigned)__builtin_ctzll(wanted);                             \
                wanted &= wanted - 1;                                                         \
                const Face *f = &b->faces[b->face_of_sym[sym]];                               \
                uint32_t c = nodes[0].first +                                                 \
                             (uint32_t)__builtin_popcountll(root & ((((MASK)1) << sym) - 1)); \
                if (f->len > 1 && !(c = rest_##W(nodes, c, f))) continue;                     \
                uint64_t used = 1ull << cell;                                                 \
                if (split < 0 || (unsigned)split == cell) {                                   \
                    int64_t x = bound_from_##W(b, nodes, cell, c, f->len, used);              \
                    unsigned i = split < 0 ? 0 : b->split_index[sym];                         \
                    if (x > best[i]) best[i] = x;                                             \
                } else {                                                                      \
                    split_from_##W(b, nodes, cell, c, f->len, used, v);                       \
                    for (unsigned i = 0; i < n; i++)                                          \
                        if (v[i] > best[i]) best[i] = v[i];                                   \
                }                                                                             \
            }                                                                                 \
            for (unsigned i = 0; i < n; i++) out[i] += best[i];                               \
        }                                                                                     \
    }

DEFINE_BOUND(32, Node32, uint32_t, WORD32)
DEFINE_BOUND(64, Node64, uint64_t, WORD64)

/* bounder(faces, neighbours, score_table, min_length) -> Bounder */
static PyObject *Kernel_bounder(Kernel *self, PyObject *args) {
    Py_buffer slots, nbrs, table;
    unsigned int min_len;
    Bounder *bd = NULL;
    if (check_ready(self) < 0) return NULL;
    if (!PyArg_ParseTuple(args, "y*y*y*I", &slots, &nbrs, &table, &min_len)) return NULL;
    if (check_slots(&slots, 64, "faces") < 0) goto done;
    Py_ssize_t n_cells = nbrs.len / (NBR_STRIDE * 2);
    if (slots.len == 0 || n_cells < 1 || n_cells > 64) {
        PyErr_SetString(PyExc_ValueError, "a bounder needs 1 to 64 faces and 1 to 64 cells");
        goto done;
    }
    if (check_rules(&nbrs, n_cells, &table) < 0) goto done;
    bd = PyObject_New(Bounder, &BounderType);
    if (!bd) goto done;
    Py_INCREF(self);
    bd->kernel = self;
    bd->n_cells = (unsigned)n_cells;
    bd->n_faces = (unsigned)(slots.len / SLOT);
    bd->min_len = min_len;
    bd->visits = 0;
    memcpy(bd->table, table.buf, sizeof bd->table);
    memset(bd->face_of_sym, 0xFF, sizeof bd->face_of_sym);
    for (unsigned i = 0; i < bd->n_faces; i++) {
        bd->faces[i] = make_face(self, (const uint8_t *)slots.buf + (size_t)i * SLOT);
        if (!bd->faces[i].len) continue; /* no word can use it: it never adds to a bound */
        unsigned sym = bd->faces[i].sym[0];
        if (bd->face_of_sym[sym] != 0xFF) {
            PyErr_SetString(PyExc_ValueError, "two faces of a bounder begin with one letter");
            Py_CLEAR(bd);
            goto done;
        }
        bd->face_of_sym[sym] = (uint8_t)i;
    }
    const uint16_t *near = nbrs.buf;
    for (unsigned cell = 0; cell < bd->n_cells; cell++) {
        const uint16_t *row = near + (size_t)cell * NBR_STRIDE;
        uint64_t bits = 0;
        for (unsigned k = 1; k <= row[0]; k++) bits |= 1ull << row[k];
        bd->near_cells[cell] = bits;
    }
done:
    PyBuffer_Release(&slots);
    PyBuffer_Release(&nbrs);
    PyBuffer_Release(&table);
    return (PyObject *)bd;
}

static void Bounder_dealloc(Bounder *self) {
    Py_XDECREF(self->kernel);
    PyObject_Free(self);
}

/* Read a class (n_cells little-endian u64 masks over the faces) into syms[]. */
static int read_class(Bounder *b, const Py_buffer *masks) {
    if (masks->len != (Py_ssize_t)(b->n_cells * 8)) {
        PyErr_Format(PyExc_ValueError, "a class is %u masks of 8 bytes", b->n_cells);
        return -1;
    }
    const uint8_t *p = masks->buf;
    b->settled = 0;
    for (unsigned cell = 0; cell < b->n_cells; cell++) {
        uint64_t m = 0;
        for (unsigned k = 0; k < 8; k++) m |= (uint64_t)p[cell * 8 + k] << (8 * k);
        if (b->n_faces < 64 && (m >> b->n_faces)) {
            PyErr_Format(PyExc_ValueError, "cell %u names a face beyond the bounder's %u",
                         cell, b->n_faces);
            return -1;
        }
        uint64_t syms = 0;
        if (m && !(m & (m - 1))) b->settled |= 1ull << cell;
        for (uint64_t left = m; left; left &= left - 1) {
            const Face *f = &b->faces[__builtin_ctzll(left)];
            if (f->len) syms |= f->bit;
        }
        b->syms[cell] = syms;
    }
    return 0;
}

/* bound(masks) -> the class's bound */
static PyObject *Bounder_bound(Bounder *self, PyObject *args) {
    Py_buffer masks;
    if (!PyArg_ParseTuple(args, "y*", &masks)) return NULL;
    PyObject *result = NULL;
    if (read_class(self, &masks) == 0) {
        int64_t out[1];
        if (self->kernel->narrow)
            class_bound_32(self, -1, out);
        else
            class_bound_64(self, -1, out);
        result = PyLong_FromLongLong(out[0]);
    }
    PyBuffer_Release(&masks);
    return result;
}

/* bound_split(masks, cell) -> [(face index, bound)] for each face the cell may show */
static PyObject *Bounder_bound_split(Bounder *self, PyObject *args) {
    Py_buffer masks;
    unsigned int cell;
    if (!PyArg_ParseTuple(args, "y*I", &masks, &cell)) return NULL;
    PyObject *result = NULL;
    if (cell >= self->n_cells) {
        PyErr_Format(PyExc_ValueError, "cell %u is outside the board's %u", cell, self->n_cells);
        goto done;
    }
    if (read_class(self, &masks) < 0) goto done;
    /* The faces the cell may show, in face order; a face no word can use gets bound 0 from
     * the walk (no way enters it), which is what it is worth here. */
    const uint8_t *p = masks.buf;
    uint64_t m = 0;
    for (unsigned k = 0; k < 8; k++) m |= (uint64_t)p[cell * 8 + k] << (8 * k);
    unsigned order[64], n = 0;
    memset(self->split_index, 0, sizeof self->split_index);
    for (uint64_t left = m; left; left &= left - 1) {
        unsigned face = (unsigned)__builtin_ctzll(left);
        order[n] = face;
        if (self->faces[face].len) self->split_index[self->faces[face].sym[0]] = (uint8_t)n;
        n++;
    }
    int64_t out[MAX_SPLIT];
    self->split_cell = cell;
    self->n_split = n;
    if (n) {
        if (self->kernel->narrow)
            class_bound_32(self, (int)cell, out);
        else
            class_bound_64(self, (int)cell, out);
    }
    result = PyList_New(n);
    for (unsigned i = 0; result && i < n; i++) {
        PyObject *pair = Py_BuildValue("(IL)", order[i], out[i]);
        if (!pair) {
            Py_CLEAR(result);
            break;
        }
        PyList_SET_ITEM(result, i, pair);
    }
done:
    PyBuffer_Release(&masks);
    return result;
}

/* visits() -> nodes the bounds have reached since the bounder was made */
static PyObject *Bounder_visits(Bounder *self, PyObject *Py_UNUSED(ignored)) {
    return PyLong_FromLongLong(self->visits);
}

/* ---- Tree: a class's bound kept as the paths that can still score ---------------------- */

/*
 * Walking the trie for every class a proof splits repeats most of the work: the class's
 * children share almost all of their paths with it. A Tree is the class's walk written down
 * once, keeping only the ways that reach a word (a dead end costs nothing again): one node
 * per (path, face), in depth-first order, each with the word's points where the path spells
 * one, the cells its subtree reaches and where its subtree ends. The bound on the tree is
 * the Bounder's, node for node (the tests check the two agree): a node's points, plus for
 * each neighbouring cell its children reach the best of them. force(cell, face) copies the
 * tree without the other faces of that cell, which is the child class's tree; its bound and
 * bound_split cost a walk of the tree, much smaller than the trie walk.
 */

typedef struct {
    uint64_t used;    /* the cells of the path to this node */
    uint64_t reach;   /* the cells this node's subtree enters (its own included) */
    uint32_t trie;    /* the trie node, for counting a settled path's word once */
    uint32_t end;     /* one past this node's subtree */
    int32_t points;   /* the points of the word this path spells here, 0 if none */
    uint8_t cell, face;
} TNode;

typedef struct {
    PyObject_HEAD
    Bounder *bounder;            /* a strong reference: the faces, rules and trie */
    uint64_t masks[64];          /* the class: per cell, the faces it may show */
    uint64_t settled;
    TNode *nodes;                /* nodes[0] is the root (no cell); the rest its subtree */
    uint32_t n, cap;
    uint32_t limit;              /* most nodes a build may write (0: no limit) */
    uint32_t gen;                /* the generation of marks of the evaluation under way */
    unsigned split_cell, n_split;
    uint8_t split_index[64];     /* a face's place among the split cell's */
} Tree;

static PyTypeObject TreeType;

/* Make room for one more node: 0, or -1 out of memory, or -2 at the build's limit. */
static int tree_push(Tree *t) {
    if (t->limit && t->n >= t->limit) return -2;
    if (t->n == t->cap) {
        uint32_t cap = t->cap ? t->cap * 2 : 1024;
        if (cap <= t->cap) return -1; /* over 4 G nodes */
        TNode *grown = realloc(t->nodes, (size_t)cap * sizeof *grown);
        if (!grown) return -1;
        t->nodes = grown;
        t->cap = cap;
    }
    t->n++;
    return 0;
}

static Tree *tree_new(Bounder *b) {
    Tree *t = PyObject_New(Tree, &TreeType);
    if (!t) return NULL;
    Py_INCREF(b);
    t->bounder = b;
    t->nodes = NULL;
    t->n = t->cap = t->limit = 0;
    t->settled = 0;
    memset(t->masks, 0, sizeof t->masks);
    return t;
}

#define DEFINE_TREE(W, NODE, MASK, WORD_BIT)                                                  \
    /* Write the subtree of node (on cell, showing face) into t; 0 if it was not kept (no  \
     * word on it), 1 if it was, -1 if memory ran out, -2 at the tree's limit. */           \
    static int tree_build_##W(Tree *t, NODE *nodes, unsigned cell, unsigned face,            \
                              uint32_t node, unsigned depth, uint64_t used) {                \
        Bounder *b = t->bounder;                                                              \
        MASK mask = nodes[node].mask;                                                         \
        uint32_t at = t->n;                                                                   \
        int r;                                                                                \
        if ((r = tree_push(t)) < 0) return r;                                                 \
        b->visits++;                                                                          \
        int32_t points = ((mask & WORD_BIT) && depth >= b->min_len) ? b->table[depth] : 0;   \
        uint64_t reach = 1ull << cell;                                                        \
        mask &= ~WORD_BIT;                                                                    \
        if (mask) {                                                                           \
            uint32_t first = nodes[node].first;                                               \
            uint64_t todo = b->near_cells[cell] & ~used;                                      \
            while (todo) {                                                                    \
                unsigned next = (unsigned)__builtin_ctzll(todo);                              \
                todo &= todo - 1;                                                             \
                MASK wanted = mask & (MASK)b->syms[next];                                     \
                while (wanted) {                                                              \
                    unsigned sym = (unsigned)__builtin_ctzll(wanted);                         \
                    wanted &= wanted - 1;                                                     \
                    unsigned fi = b->face_of_sym[sym];                                        \
                    const Face *f = &b->faces[fi];                                            \
                    uint32_t c = first + (uint32_t)__builtin_popcountll(mask & ((((MASK)1) << sym) - 1)); \
                    if (f->len > 1 && !(c = rest_##W(nodes, c, f))) continue;                 \
                    uint32_t child = t->n;                                                    \
                    int kept = tree_build_##W(t, nodes, next, fi, c, depth + f->len,          \
                                              used | (1ull << next));                         \
                    if (kept < 0) return kept;                                                  \
                    if (kept) reach |= t->nodes[child].reach;                                 \
                }                                                                             \
            }                                                                                 \
        }                                                                                     \
        if (!points && t->n == at + 1) {                                                      \
            t->n = at; /* nothing to score this way */                                        \
            return 0;                                                                         \
        }                                                                                     \
        TNode *n = &t->nodes[at];                                                             \
        n->used = used;                                                                       \
        n->reach = reach;                                                                     \
        n->trie = node;                                                                       \
        n->end = t->n;                                                                        \
        n->points = points;                                                                   \
        n->cell = (uint8_t)cell;                                                              \
        n->face = (uint8_t)face;                                                              \
        return 1;                                                                             \
    }                                                                                         \
                                                                                              \
    static int tree_root_##W(Tree *t) {                                                       \
        Bounder *b = t->bounder;                                                              \
        NODE *nodes = b->kernel->nodes;                                                       \
        MASK root = nodes[0].mask & ~WORD_BIT;                                                \
        int r;                                                                                \
        if ((r = tree_push(t)) < 0) return r;                                                 \
        uint64_t reach = 0;                                                                   \
        for (unsigned cell = 0; cell < b->n_cells; cell++) {                                  \
            MASK wanted = root & (MASK)b->syms[cell];                                         \
            while (wanted) {                                                                  \
                unsigned sym = (unsigned)__builtin_ctzll(wanted);                             \
                wanted &= wanted - 1;                                                         \
                unsigned fi = b->face_of_sym[sym];                                            \
                const Face *f = &b->faces[fi];                                                \
                uint32_t c = nodes[0].first +                                                 \
                             (uint32_t)__builtin_popcountll(root & ((((MASK)1) << sym) - 1)); \
                if (f->len > 1 && !(c = rest_##W(nodes, c, f))) continue;                     \
                uint32_t child = t->n;                                                        \
                int kept = tree_build_##W(t, nodes, cell, fi, c, f->len, 1ull << cell);       \
                if (kept < 0) return kept;                                                    \
                if (kept) reach |= t->nodes[child].reach;                                     \
            }                                                                                 \
        }                                                                                     \
        TNode *top = &t->nodes[0];                                                            \
        memset(top, 0, sizeof *top);                                                          \
        top->reach = reach;                                                                   \
        top->end = t->n;                                                                      \
        top->cell = 0xFF;                                                                     \
        return 0;                                                                             \
    }                                                                                         \
                                                                                              \
    /* A node's points: once an evaluation for a word on a settled path, else once a path. */ \
    static inline int64_t tree_points_##W(Tree *t, const TNode *n) {                          \
        if (!n->points) return 0;                                                             \
        if (n->used & ~t->settled) return n->points;                                          \
        NODE *tn = &((NODE *)t->bounder->kernel->nodes)[n->trie];                             \
        if (tn->mark == t->gen) return 0;                                                     \
        tn->mark = t->gen;                                                                    \
        return n->points;                                                                     \
    }                                                                                         \
                                                                                              \
    static int64_t tree_eval_##W(Tree *t, uint32_t i) {                                       \
        const TNode *nodes = t->nodes;                                                        \
        int64_t total = tree_points_##W(t, &nodes[i]), best = 0;                              \
        uint32_t j = i + 1, end = nodes[i].end;                                               \
        unsigned cur = 0xFF;                                                                  \
        t->bounder->visits++;                                                                 \
        while (j < end) {                                                                     \
            if (nodes[j].cell != cur) {                                                       \
                total += best;                                                                \
                best = 0;                                                                     \
                cur = nodes[j].cell;                                                          \
            }                                                                                 \
            int64_t v = tree_eval_##W(t, j);                                                  \
            if (v > best) best = v;                                                           \
            j = nodes[j].end;                                                                 \
        }                                                                                     \
        return total + best;                                                                  \
    }                                                                                         \
                                                                                              \
    /* out[k]: the bound of node i's subtree when the split cell shows its k-th face. */      \
    static void tree_split_##W(Tree *t, uint32_t i, int64_t *out) {                           \
        const TNode *nodes = t->nodes;                                                        \
        unsigned n = t->n_split;                                                              \
        uint64_t split_bit = 1ull << t->split_cell;                                           \
        int64_t here = tree_points_##W(t, &nodes[i]);                                         \
        int64_t best[MAX_SPLIT], v[MAX_SPLIT];                                                \
        for (unsigned k = 0; k < n; k++) out[k] = here, best[k] = 0;                          \
        uint32_t j = i + 1, end = nodes[i].end;                                               \
        unsigned cur = 0xFF;                                                                  \
        t->bounder->visits++;                                                                 \
        while (j < end) {                                                                     \
            const TNode *c = &nodes[j];                                                       \
            if (c->cell != cur) {                                                             \
                for (unsigned k = 0; k < n; k++) out[k] += best[k], best[k] = 0;              \
                cur = c->cell;                                                                \
            }                                                                                 \
            if (c->cell == t->split_cell) {                                                   \
                int64_t x = tree_eval_##W(t, j);                                              \
                unsigned k = t->split_index[c->face];                                         \
                if (x > best[k]) best[k] = x;                                                 \
            } else if (!(c->reach & split_bit)) {                                             \
                int64_t x = tree_eval_##W(t, j);                                              \
                for (unsigned k = 0; k < n; k++)                                              \
                    if (x > best[k]) best[k] = x;                                             \
            } else {                                                                          \
                tree_split_##W(t, j, v);                                                      \
                for (unsigned k = 0; k < n; k++)                                              \
                    if (v[k] > best[k]) best[k] = v[k];                                       \
            }                                                                                 \
            j = c->end;                                                                       \
        }                                                                                     \
        for (unsigned k = 0; k < n; k++) out[k] += best[k];                                   \
    }

DEFINE_TREE(32, Node32, uint32_t, WORD32)
DEFINE_TREE(64, Node64, uint64_t, WORD64)

/* Copy the subtree of src's node i into dst, leaving out every node on `cell` that shows
 * another face than `face`; 0 if nothing of it is left, 1 if kept, -1 out of memory. */
static int tree_copy(Tree *dst, const Tree *src, uint32_t i, unsigned cell, unsigned face) {
    const TNode *s = &src->nodes[i];
    if (s->cell == cell && s->face != face) return 0;
    uint32_t at = dst->n;
    if (tree_push(dst) < 0) return -1;
    uint64_t reach = s->cell == 0xFF ? 0 : 1ull << s->cell;
    for (uint32_t j = i + 1, end = s->end; j < end; j = src->nodes[j].end) {
        if (!(src->nodes[j].reach & (1ull << cell))) {
            /* the cell is not on this subtree: it comes over whole */
            uint32_t count = src->nodes[j].end - j, base = dst->n;
            while (dst->n - base < count)
                if (tree_push(dst) < 0) return -1;
            memcpy(&dst->nodes[base], &src->nodes[j], (size_t)count * sizeof(TNode));
            for (uint32_t k = 0; k < count; k++) dst->nodes[base + k].end += base - j;
            reach |= src->nodes[j].reach;
            continue;
        }
        uint32_t child = dst->n;
        int kept = tree_copy(dst, src, j, cell, face);
        if (kept < 0) return -1;
        if (kept) reach |= dst->nodes[child].reach;
    }
    if (s->cell != 0xFF && !s->points && dst->n == at + 1) {
        dst->n = at;
        return 0;
    }
    TNode *d = &dst->nodes[at];
    *d = *s;
    d->reach = reach;
    d->end = dst->n;
    return 1;
}

static void Tree_dealloc(Tree *self) {
    free(self->nodes);
    Py_XDECREF(self->bounder);
    PyObject_Free(self);
}

static void tree_begin(Tree *t) {
    Kernel *k = t->bounder->kernel;
    begin_board(k, k->scratch); /* a new generation of marks */
    t->gen = k->gen;
}

/* Bounder.tree(masks[, max_nodes]) -> the Tree of the class, or None if it would need more
 * than max_nodes nodes (the caller then splits the class by walking the trie) */
static PyObject *Bounder_tree(Bounder *self, PyObject *args) {
    Py_buffer masks;
    unsigned int max_nodes = 0;
    if (!PyArg_ParseTuple(args, "y*|I", &masks, &max_nodes)) return NULL;
    Tree *t = NULL;
    if (read_class(self, &masks) < 0) goto done;
    t = tree_new(self);
    if (!t) goto done;
    const uint8_t *p = masks.buf;
    for (unsigned cell = 0; cell < self->n_cells; cell++)
        for (unsigned k = 0; k < 8; k++) t->masks[cell] |= (uint64_t)p[cell * 8 + k] << (8 * k);
    t->settled = self->settled;
    t->limit = max_nodes;
    int ok = self->kernel->narrow ? tree_root_32(t) : tree_root_64(t);
    t->limit = 0;
    if (ok == -2) {
        Py_CLEAR(t);
        PyBuffer_Release(&masks);
        Py_RETURN_NONE;
    }
    if (ok < 0) {
        Py_CLEAR(t);
        PyErr_NoMemory();
    }
done:
    PyBuffer_Release(&masks);
    return (PyObject *)t;
}

/* bound() -> the class's bound */
static PyObject *Tree_bound(Tree *self, PyObject *Py_UNUSED(ignored)) {
    tree_begin(self);
    int64_t v = self->bounder->kernel->narrow ? tree_eval_32(self, 0) : tree_eval_64(self, 0);
    return PyLong_FromLongLong(v);
}

static int tree_cell(Tree *self, unsigned cell) {
    if (cell >= self->bounder->n_cells) {
        PyErr_Format(PyExc_ValueError, "cell %u is outside the board's %u", cell,
                     self->bounder->n_cells);
        return -1;
    }
    return 0;
}

/* bound_split(cell) -> [(face, bound)] for each face the cell may show */
static PyObject *Tree_bound_split(Tree *self, PyObject *args) {
    unsigned int cell;
    if (!PyArg_ParseTuple(args, "I", &cell) || tree_cell(self, cell) < 0) return NULL;
    tree_begin(self);
    unsigned order[64], n = 0;
    memset(self->split_index, 0, sizeof self->split_index);
    for (uint64_t left = self->masks[cell]; left; left &= left - 1) {
        order[n] = (unsigned)__builtin_ctzll(left);
        self->split_index[order[n]] = (uint8_t)n;
        n++;
    }
    int64_t out[MAX_SPLIT];
    self->split_cell = cell;
    self->n_split = n;
    if (self->bounder->kernel->narrow)
        tree_split_32(self, 0, out);
    else
        tree_split_64(self, 0, out);
    PyObject *result = PyList_New(n);
    for (unsigned i = 0; result && i < n; i++) {
        PyObject *pair = Py_BuildValue("(IL)", order[i], out[i]);
        if (!pair) {
            Py_CLEAR(result);
            break;
        }
        PyList_SET_ITEM(result, i, pair);
    }
    return result;
}

/* force(cell, face) -> the Tree of the class with the cell settled to that face */
static PyObject *Tree_force(Tree *self, PyObject *args) {
    unsigned int cell, face;
    if (!PyArg_ParseTuple(args, "II", &cell, &face) || tree_cell(self, cell) < 0) return NULL;
    if (face >= 64 || !((self->masks[cell] >> face) & 1)) {
        PyErr_Format(PyExc_ValueError, "cell %u may not show face %u in this class", cell, face);
        return NULL;
    }
    Tree *t = tree_new(self->bounder);
    if (!t) return NULL;
    memcpy(t->masks, self->masks, sizeof t->masks);
    t->masks[cell] = 1ull << face;
    t->settled = self->settled | (1ull << cell);
    if (tree_copy(t, self, 0, cell, face) < 0) {
        Py_DECREF(t);
        return PyErr_NoMemory();
    }
    return (PyObject *)t;
}

static Py_ssize_t Tree_len(Tree *self) { return (Py_ssize_t)self->n; }

static PyMethodDef Tree_methods[] = {
    {"bound", (PyCFunction)Tree_bound, METH_NOARGS,
     "bound() -> the class's bound, as Bounder.bound gives it"},
    {"bound_split", (PyCFunction)Tree_bound_split, METH_VARARGS,
     "bound_split(cell) -> [(face, bound)] of the classes settling the cell"},
    {"force", (PyCFunction)Tree_force, METH_VARARGS,
     "force(cell, face) -> the Tree of the class with the cell showing that face"},
    {NULL, NULL, 0, NULL},
};

static PySequenceMethods Tree_as_sequence = {.sq_length = (lenfunc)Tree_len};

static PyTypeObject TreeType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "solver.engine._kernel.Tree",
    .tp_doc = "A class's bound as the paths that can still score; made by Bounder.tree().",
    .tp_basicsize = sizeof(Tree),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_dealloc = (destructor)Tree_dealloc,
    .tp_methods = Tree_methods,
    .tp_as_sequence = &Tree_as_sequence,
};

static PyMethodDef Bounder_methods[] = {
    {"bound", (PyCFunction)Bounder_bound, METH_VARARGS,
     "bound(masks) -> an upper bound on the score of every board of the class"},
    {"bound_split", (PyCFunction)Bounder_bound_split, METH_VARARGS,
     "bound_split(masks, cell) -> [(face, bound)] of the classes settling the cell"},
    {"tree", (PyCFunction)Bounder_tree, METH_VARARGS,
     "tree(masks[, max_nodes]) -> the class's Tree (None if larger than max_nodes)"},
    {"visits", (PyCFunction)Bounder_visits, METH_NOARGS,
     "visits() -> trie nodes the bounds have reached so far"},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject BounderType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "solver.engine._kernel.Bounder",
    .tp_doc = "Upper bounds on the scores of classes of boards; made by Kernel.bounder().",
    .tp_basicsize = sizeof(Bounder),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_dealloc = (destructor)Bounder_dealloc,
    .tp_methods = Bounder_methods,
};

static PyMethodDef Kernel_methods[] = {
    {"solve", (PyCFunction)Kernel_solve, METH_VARARGS,
     "solve(cells, neighbours, score_table, min_length) -> (word ids as u32 bytes, score)"},
    {"scorer", (PyCFunction)Kernel_scorer, METH_VARARGS,
     "scorer(faces, neighbours, score_table, min_length, long_length) -> Scorer"},
    {"bounder", (PyCFunction)Kernel_bounder, METH_VARARGS,
     "bounder(faces, neighbours, score_table, min_length) -> Bounder"},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject KernelType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "solver.engine._kernel.Kernel",
    .tp_doc = "The compiled search over one trie buffer.",
    .tp_basicsize = sizeof(Kernel),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)Kernel_init,
    .tp_dealloc = (destructor)Kernel_dealloc,
    .tp_methods = Kernel_methods,
};

static struct PyModuleDef kernel_module = {
    .m_base = PyModuleDef_HEAD_INIT,
    .m_name = "_kernel",
    .m_doc = "Compiled Boggle search over a trie.",
    .m_size = -1,
};

PyMODINIT_FUNC PyInit__kernel(void) {
    if (PyType_Ready(&KernelType) < 0 || PyType_Ready(&ScorerType) < 0 ||
        PyType_Ready(&BounderType) < 0 || PyType_Ready(&TreeType) < 0)
        return NULL;
    PyObject *m = PyModule_Create(&kernel_module);
    if (!m) return NULL;
    Py_INCREF(&KernelType);
    if (PyModule_AddObject(m, "Kernel", (PyObject *)&KernelType) < 0) {
        Py_DECREF(&KernelType);
        Py_DECREF(m);
        return NULL;
    }
    Py_INCREF(&ScorerType);
    if (PyModule_AddObject(m, "Scorer", (PyObject *)&ScorerType) < 0) {
        Py_DECREF(&ScorerType);
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
