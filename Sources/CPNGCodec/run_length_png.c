// The run-length PNG encoder for drawn frames and tiles, in the manner of fpnge: each row takes
// whichever of the None, Sub and Up filters leaves it the fewest bytes that differ from the byte
// before, every run of a repeated byte is one deflate match at distance 1, and the rest are
// literals, in one dynamic Huffman block built from the image's own counts. A general deflate
// compressor (libdeflate at level 1, zlib) spends most of its time searching for matches that
// flat map colours make needless; this searches for none. libdeflate still sums the Adler-32
// and the chunks' CRCs.
#include "png_codec.h"
#include "pixel_rows.h"

#include <libdeflate.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

enum {
    MAX_CODE_BITS = 15,
    MAX_CODE_LENGTH_BITS = 7,
    END_OF_BLOCK = 256,
    LENGTH_SYMBOLS = 29,
    LITLEN_SYMBOLS = 257 + LENGTH_SYMBOLS,
    DISTANCE_SYMBOLS = 2,
    CODE_LENGTH_SYMBOLS = 19,
    MIN_MATCH = 3,
    MAX_MATCH = 258,
};

static void set_message(char *error, size_t error_size, const char *message) {
    if (error_size > 0) snprintf(error, error_size, "%s", message);
}

// --- Rows and filters ---------------------------------------------------------------------

// Bytes of `row` that differ from the byte before them: each is a literal, the rest are runs.
static size_t changes(const uint8_t *row, size_t length) {
    size_t count = 1, i = 1;
#if defined(__SSE2__)
    // Sixteen bytes at a time against the sixteen before them, the equal ones counted in bytes
    // of their own (at most 255 rounds), then summed.
    const __m128i zero = _mm_setzero_si128();
    __m128i equal = zero;
    while (i + 16 <= length) {
        __m128i counts = zero;
        for (int round = 0; round < 255 && i + 16 <= length; round++, i += 16) {
            __m128i same = _mm_cmpeq_epi8(_mm_loadu_si128((const __m128i *)(row + i)), _mm_loadu_si128((const __m128i *)(row + i - 1)));
            counts = _mm_sub_epi8(counts, same);
        }
        equal = _mm_add_epi64(equal, _mm_sad_epu8(counts, zero));
    }
    count += (i - 1) - (size_t)(_mm_cvtsi128_si64(equal) + _mm_cvtsi128_si64(_mm_unpackhi_epi64(equal, equal)));
#endif
    for (; i < length; i++) count += row[i] != row[i - 1];
    return count;
}

#if defined(__x86_64__)
#include <tmmintrin.h>
// `convert_row` for opaque pixels, four at a time with SSSE3's byte shuffle: each pixel's red,
// green and blue bytes, alpha left out. Every x86-64 processor since 2008 has it; others take
// `convert_row`.
__attribute__((target("ssse3"))) static void opaque_row_ssse3(const uint32_t *source, uint8_t *target, int width) {
    const __m128i rgb = _mm_setr_epi8(2, 1, 0, 6, 5, 4, 10, 9, 8, 14, 13, 12, -1, -1, -1, -1);
    int x = 0;
    // Each store writes 16 bytes, of which 12 are these pixels' and 4 are overwritten by the next
    // two pixels', so the last pixels go singly.
    for (; x + 6 <= width; x += 4, target += 12) {
        _mm_storeu_si128((__m128i *)target, _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(source + x)), rgb));
    }
    convert_row(source + x, target, width - x, 1);
}

static int has_ssse3(void) {
    static int known = -1;
    if (known < 0) known = __builtin_cpu_supports("ssse3") ? 1 : 0;
    return known;
}
#endif

static void pixel_row(const uint32_t *source, uint8_t *target, int width, int opaque) {
#if defined(__x86_64__)
    if (opaque && has_ssse3()) {
        opaque_row_ssse3(source, target, width);
        return;
    }
#endif
    convert_row(source, target, width, opaque);
}

// Fills `stream` with every row, each behind the filter type that suits it best.
static void filter_rows(const uint8_t *pixels, int width, int height, int stride, int opaque,
                        uint8_t *stream, uint8_t *scratch) {
    size_t bpp = opaque ? 3 : 4, row_bytes = (size_t)width * bpp;
    uint8_t *current = scratch, *previous = scratch + row_bytes;
    uint8_t *sub = scratch + 2 * row_bytes, *up = scratch + 3 * row_bytes;
    for (int y = 0; y < height; y++) {
        pixel_row((const uint32_t *)(pixels + (size_t)y * stride), current, width, opaque);
        for (size_t i = 0; i < bpp; i++) sub[i] = current[i];
        for (size_t i = bpp; i < row_bytes; i++) sub[i] = (uint8_t)(current[i] - current[i - bpp]);
        size_t best_changes = changes(sub, row_bytes);
        uint8_t filter = 1;
        const uint8_t *best = sub;
        if (y > 0) {
            for (size_t i = 0; i < row_bytes; i++) up[i] = (uint8_t)(current[i] - previous[i]);
            size_t up_changes = changes(up, row_bytes);
            if (up_changes <= best_changes) best = up, best_changes = up_changes, filter = 2;
        }
        if (changes(current, row_bytes) < best_changes) best = current, filter = 0;
        uint8_t *target = stream + (size_t)y * (row_bytes + 1);
        target[0] = filter;
        memcpy(target + 1, best, row_bytes);
        uint8_t *swap = previous;
        previous = current;
        current = swap;
    }
}

// How many bytes from `at` (before `end`) equal `value`.
static size_t run_from(const uint8_t *at, const uint8_t *end, uint8_t value) {
    const uint8_t *start = at;
#if defined(__SSE2__)
    __m128i repeated = _mm_set1_epi8((char)value);
    while (end - at >= 16) {
        unsigned same = (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(_mm_loadu_si128((const __m128i *)at), repeated));
        if (same != 0xFFFF) return (size_t)(at - start) + (size_t)__builtin_ctz(~same);
        at += 16;
    }
#endif
    while (at < end && *at == value) at++;
    return (size_t)(at - start);
}

// --- Deflate's symbols ----------------------------------------------------------------------

// Each match length's symbol and extra bits.
struct length_codes {
    uint16_t symbol[MAX_MATCH + 1];
    uint8_t extra_bits[MAX_MATCH + 1];
    uint16_t extra[MAX_MATCH + 1];
};

static void make_length_codes(struct length_codes *codes) {
    static const uint16_t base[LENGTH_SYMBOLS] = {3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31,
                                                  35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258};
    static const uint8_t bits[LENGTH_SYMBOLS] = {0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2,
                                                 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0};
    for (int code = 0; code < LENGTH_SYMBOLS; code++) {
        int last = code + 1 < LENGTH_SYMBOLS ? base[code + 1] - 1 : MAX_MATCH;
        if (code == LENGTH_SYMBOLS - 2) last = 257;  // 227 + 31 is 258, which has a code of its own
        for (int length = base[code]; length <= last; length++) {
            codes->symbol[length] = (uint16_t)(257 + code);
            codes->extra_bits[length] = bits[code];
            codes->extra[length] = (uint16_t)(length - base[code]);
        }
    }
}

// What the tokenizer hands its symbols to: counts on the first pass, bits on the second.
struct bit_writer {
    uint8_t *at;
    uint64_t bits;
    int count;
};

static inline void put_bits(struct bit_writer *writer, uint32_t bits, int count) {
    writer->bits |= (uint64_t)bits << writer->count;
    writer->count += count;
    if (writer->count >= 32) {
        uint32_t word = (uint32_t)writer->bits;
        writer->at[0] = (uint8_t)word;
        writer->at[1] = (uint8_t)(word >> 8);
        writer->at[2] = (uint8_t)(word >> 16);
        writer->at[3] = (uint8_t)(word >> 24);
        writer->at += 4;
        writer->bits >>= 32;
        writer->count -= 32;
    }
}

static void finish_bits(struct bit_writer *writer) {
    while (writer->count > 0) {
        *writer->at++ = (uint8_t)writer->bits;
        writer->bits >>= 8;
        writer->count -= 8;
    }
    writer->count = 0;
}

// A Huffman code: each symbol's bits, reversed as deflate writes them, and their number.
struct code {
    uint16_t bits[LITLEN_SYMBOLS];
    uint8_t length[LITLEN_SYMBOLS];
};

// The literal and match codes, a match's whole code (length symbol, extra bits and the one
// distance code) made ahead for every length.
struct symbol_coder {
    struct code litlen;
    uint32_t match_bits[MAX_MATCH + 1];
    uint8_t match_length[MAX_MATCH + 1];
};

// Splits `stream` into literals and distance-1 matches: counted when `writer` is NULL, else
// written. `inline` twice over, so each use compiles to its own loop.
static inline __attribute__((always_inline)) void tokenize(
    const uint8_t *stream, size_t length, const struct length_codes *lengths,
    uint32_t *counts, const struct symbol_coder *coder, struct bit_writer *writer) {
#define LITERAL(byte)                                                                   \
    do {                                                                                \
        if (writer) put_bits(writer, coder->litlen.bits[byte], coder->litlen.length[byte]); \
        else counts[byte]++;                                                            \
    } while (0)
#define MATCH(size)                                                                     \
    do {                                                                                \
        if (writer) put_bits(writer, coder->match_bits[size], coder->match_length[size]); \
        else counts[lengths->symbol[size]]++;                                           \
    } while (0)
    const uint8_t *at = stream, *end = stream + length;
    LITERAL(*at);
    at++;
    while (at < end) {
        uint8_t value = at[-1];
        if (*at != value) {
            LITERAL(*at);
            at++;
            continue;
        }
        size_t run = run_from(at, end, value);
        at += run;
        while (run >= MIN_MATCH) {
            size_t size = run > MAX_MATCH ? MAX_MATCH : run;
            // A match is at least 3 bytes: never leave 1 or 2 over after a long one.
            if (run - size > 0 && run - size < MIN_MATCH) size = run - MIN_MATCH;
            MATCH(size);
            run -= size;
        }
        while (run-- > 0) LITERAL(value);
    }
#undef LITERAL
#undef MATCH
}

// --- Huffman codes -------------------------------------------------------------------------

struct weighted {
    uint32_t weight;
    uint16_t symbol;
};

static int by_weight(const void *a, const void *b) {
    const struct weighted *left = a, *right = b;
    if (left->weight != right->weight) return left->weight < right->weight ? -1 : 1;
    return left->symbol < right->symbol ? -1 : 1;
}

// Code lengths of at most `limit` bits for `symbols` symbols with these counts: Huffman's, with
// the counts halved until the longest fits. Every symbol counted gets a code, and at least two
// do, so the code is complete, as inflaters require.
static void huffman_lengths(const uint32_t *counts, int symbols, int limit, uint8_t *lengths) {
    uint32_t weights[LITLEN_SYMBOLS];
    int used = 0;
    for (int symbol = 0; symbol < symbols; symbol++) {
        weights[symbol] = counts[symbol];
        used += counts[symbol] > 0;
    }
    for (int symbol = 0; used < 2; symbol++) {
        if (weights[symbol] == 0) weights[symbol] = 1, used++;
    }
    for (;;) {
        // Leaves sorted by weight, then the two-queue construction: leaves and joined nodes are
        // each taken lightest first. Nodes 0..used-1 are leaves, the rest joined.
        struct weighted leaves[LITLEN_SYMBOLS];
        int leaf_count = 0;
        for (int symbol = 0; symbol < symbols; symbol++) {
            if (weights[symbol] > 0) leaves[leaf_count++] = (struct weighted){weights[symbol], (uint16_t)symbol};
        }
        qsort(leaves, (size_t)leaf_count, sizeof leaves[0], by_weight);
        uint64_t weight[2 * LITLEN_SYMBOLS];
        int parent[2 * LITLEN_SYMBOLS];
        for (int i = 0; i < leaf_count; i++) weight[i] = leaves[i].weight;
        int next_leaf = 0, next_node = leaf_count, nodes = leaf_count;
        for (int joined = 0; joined < leaf_count - 1; joined++) {
            int pick[2];
            for (int k = 0; k < 2; k++) {
                if (next_leaf < leaf_count && (next_node >= nodes || weight[next_leaf] <= weight[next_node])) {
                    pick[k] = next_leaf++;
                } else {
                    pick[k] = next_node++;
                }
            }
            weight[nodes] = weight[pick[0]] + weight[pick[1]];
            parent[pick[0]] = parent[pick[1]] = nodes;
            nodes++;
        }
        // Depths from the root down: a node's parent always comes after it.
        int depth[2 * LITLEN_SYMBOLS];
        depth[nodes - 1] = 0;
        int longest = 0;
        for (int node = nodes - 2; node >= 0; node--) {
            depth[node] = depth[parent[node]] + 1;
            if (node < leaf_count && depth[node] > longest) longest = depth[node];
        }
        if (longest <= limit) {
            memset(lengths, 0, (size_t)symbols);
            for (int i = 0; i < leaf_count; i++) lengths[leaves[i].symbol] = (uint8_t)depth[i];
            return;
        }
        for (int symbol = 0; symbol < symbols; symbol++) {
            if (weights[symbol] > 0) weights[symbol] = (weights[symbol] >> 1) | 1;
        }
    }
}

static uint16_t reversed(uint16_t code, int length) {
    uint16_t result = 0;
    for (int i = 0; i < length; i++) {
        result = (uint16_t)(result << 1 | (code & 1));
        code >>= 1;
    }
    return result;
}

// Deflate's canonical codes for these lengths (RFC 1951, 3.2.2).
static void canonical_code(const uint8_t *lengths, int symbols, struct code *code) {
    uint16_t length_counts[MAX_CODE_BITS + 1] = {0}, next[MAX_CODE_BITS + 1] = {0};
    for (int symbol = 0; symbol < symbols; symbol++) length_counts[lengths[symbol]]++;
    length_counts[0] = 0;
    uint16_t value = 0;
    for (int bits = 1; bits <= MAX_CODE_BITS; bits++) {
        value = (uint16_t)((value + length_counts[bits - 1]) << 1);
        next[bits] = value;
    }
    for (int symbol = 0; symbol < symbols; symbol++) {
        code->length[symbol] = lengths[symbol];
        code->bits[symbol] = lengths[symbol] ? reversed(next[lengths[symbol]]++, lengths[symbol]) : 0;
    }
}

// --- The block's header ----------------------------------------------------------------------

static const uint8_t code_length_order[CODE_LENGTH_SYMBOLS] = {16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15};

// The header's code lengths as code-length symbols: lengths as they are, and runs of zeros as
// 17 (3-10) or 18 (11-138) with their extra bits.
struct code_length_symbols {
    uint8_t symbol[LITLEN_SYMBOLS + DISTANCE_SYMBOLS];
    uint8_t extra[LITLEN_SYMBOLS + DISTANCE_SYMBOLS];
    int count;
};

static void code_length_symbols(const uint8_t *lengths, int total, struct code_length_symbols *out) {
    out->count = 0;
    for (int i = 0; i < total;) {
        int run = 0;
        while (i + run < total && lengths[i + run] == 0 && run < 138) run++;
        if (run >= 11) {
            out->symbol[out->count] = 18, out->extra[out->count++] = (uint8_t)(run - 11);
            i += run;
        } else if (run >= 3) {
            out->symbol[out->count] = 17, out->extra[out->count++] = (uint8_t)(run - 3);
            i += run;
        } else {
            out->symbol[out->count] = lengths[i], out->extra[out->count++] = 0;
            i++;
        }
    }
}

static const uint8_t code_length_extra_bits[CODE_LENGTH_SYMBOLS] = {[16] = 2, [17] = 3, [18] = 7};

// --- The PNG --------------------------------------------------------------------------------

static uint8_t *put_be32(uint8_t *at, uint32_t value) {
    at[0] = (uint8_t)(value >> 24);
    at[1] = (uint8_t)(value >> 16);
    at[2] = (uint8_t)(value >> 8);
    at[3] = (uint8_t)value;
    return at + 4;
}

// Writes a chunk's length and type before its data (already at at + 8) and its CRC after;
// returns the end.
static uint8_t *finish_chunk(uint8_t *at, const char *type, size_t length) {
    put_be32(at, (uint32_t)length);
    memcpy(at + 4, type, 4);
    return put_be32(at + 8 + length, (uint32_t)libdeflate_crc32(0, at + 4, 4 + length));
}

int mf_png_encode_run_length(const uint8_t *pixels, int width, int height, int stride, int opaque,
                             uint8_t **png_out, size_t *png_length, char *error, size_t error_size) {
    *png_out = NULL;
    *png_length = 0;
    if (width <= 0 || height <= 0) {
        set_message(error, error_size, "an image to encode needs at least one pixel");
        return -1;
    }
    size_t row_bytes = (size_t)width * (opaque ? 3 : 4);
    size_t stream_length = (row_bytes + 1) * (size_t)height;
    uint8_t *stream = malloc(stream_length + 4 * row_bytes);
    if (stream == NULL) {
        set_message(error, error_size, "out of memory");
        return -1;
    }
    filter_rows(pixels, width, height, stride, opaque, stream, stream + stream_length);

    struct length_codes lengths;
    make_length_codes(&lengths);
    uint32_t counts[LITLEN_SYMBOLS] = {0};
    tokenize(stream, stream_length, &lengths, counts, NULL, NULL);
    counts[END_OF_BLOCK] = 1;

    // The codes, and the header that declares them.
    uint8_t code_lengths[LITLEN_SYMBOLS + DISTANCE_SYMBOLS];
    huffman_lengths(counts, LITLEN_SYMBOLS, MAX_CODE_BITS, code_lengths);
    int litlen_used = LITLEN_SYMBOLS;
    while (code_lengths[litlen_used - 1] == 0) litlen_used--;
    // Only distance 1 is used; two codes of one bit keep the distance code complete.
    code_lengths[litlen_used] = code_lengths[litlen_used + 1] = 1;
    struct code_length_symbols header;
    code_length_symbols(code_lengths, litlen_used + DISTANCE_SYMBOLS, &header);
    uint32_t header_counts[CODE_LENGTH_SYMBOLS] = {0};
    for (int i = 0; i < header.count; i++) header_counts[header.symbol[i]]++;
    uint8_t header_lengths[CODE_LENGTH_SYMBOLS];
    huffman_lengths(header_counts, CODE_LENGTH_SYMBOLS, MAX_CODE_LENGTH_BITS, header_lengths);
    struct code header_code;
    canonical_code(header_lengths, CODE_LENGTH_SYMBOLS, &header_code);
    int header_lengths_sent = CODE_LENGTH_SYMBOLS;
    while (header_lengths_sent > 4 && header_lengths[code_length_order[header_lengths_sent - 1]] == 0) header_lengths_sent--;

    struct symbol_coder coder;
    canonical_code(code_lengths, litlen_used, &coder.litlen);
    for (int size = MIN_MATCH; size <= MAX_MATCH; size++) {
        int symbol = lengths.symbol[size];
        int length_bits = coder.litlen.length[symbol];
        // The length's code, its extra bits, then distance code 0 (one bit, 0).
        coder.match_bits[size] = coder.litlen.bits[symbol] | (uint32_t)lengths.extra[size] << length_bits;
        coder.match_length[size] = (uint8_t)(length_bits + lengths.extra_bits[size] + 1);
    }

    // The exact size of the deflate stream, from the counts.
    uint64_t bits = 3 + 5 + 5 + 4 + 3 * (uint64_t)header_lengths_sent;
    for (int i = 0; i < header.count; i++) bits += header_lengths[header.symbol[i]] + code_length_extra_bits[header.symbol[i]];
    for (int symbol = 0; symbol < LITLEN_SYMBOLS; symbol++) {
        if (counts[symbol] == 0) continue;
        uint64_t each = coder.litlen.length[symbol];
        // A match's extra bits and distance bit: counts do not tell the lengths apart within a
        // symbol, so the bound takes each symbol's most extra bits.
        if (symbol > END_OF_BLOCK) each += 1 + (symbol >= 265 && symbol < 285 ? (symbol - 261) / 4 : 0);
        bits += counts[symbol] * each;
    }
    size_t deflate_bound = (size_t)(bits + 7) / 8 + 8;  // the writer stores 4 bytes at a time

    static const uint8_t signature[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
    // Signature, IHDR (12 + 13), IDAT (12 + 2 + deflate + 4) and IEND (12).
    uint8_t *png = malloc(8 + 25 + 12 + 2 + deflate_bound + 4 + 12);
    if (png == NULL) {
        free(stream);
        set_message(error, error_size, "out of memory");
        return -1;
    }
    memcpy(png, signature, 8);
    uint8_t *fields = put_be32(put_be32(png + 16, (uint32_t)width), (uint32_t)height);
    fields[0] = 8;               // bit depth
    fields[1] = opaque ? 2 : 6;  // colour type: RGB or RGBA
    fields[2] = fields[3] = fields[4] = 0;  // deflate, adaptive filtering method, no interlace
    uint8_t *data_chunk = finish_chunk(png + 8, "IHDR", 13);

    uint8_t *zlib = data_chunk + 8;
    zlib[0] = 0x78, zlib[1] = 0x01;  // deflate with a 32 KiB window, the fastest level
    struct bit_writer writer = {zlib + 2, 0, 0};
    put_bits(&writer, 1, 1);  // the last block
    put_bits(&writer, 2, 2);  // dynamic Huffman codes
    put_bits(&writer, (uint32_t)(litlen_used - 257), 5);
    put_bits(&writer, DISTANCE_SYMBOLS - 1, 5);
    put_bits(&writer, (uint32_t)(header_lengths_sent - 4), 4);
    for (int i = 0; i < header_lengths_sent; i++) put_bits(&writer, header_lengths[code_length_order[i]], 3);
    for (int i = 0; i < header.count; i++) {
        int symbol = header.symbol[i];
        put_bits(&writer, header_code.bits[symbol], header_code.length[symbol]);
        if (code_length_extra_bits[symbol]) put_bits(&writer, header.extra[i], code_length_extra_bits[symbol]);
    }
    tokenize(stream, stream_length, &lengths, NULL, &coder, &writer);
    put_bits(&writer, coder.litlen.bits[END_OF_BLOCK], coder.litlen.length[END_OF_BLOCK]);
    finish_bits(&writer);
    uint8_t *end_of_zlib = put_be32(writer.at, (uint32_t)libdeflate_adler32(1, stream, stream_length));
    free(stream);

    uint8_t *end_chunk = finish_chunk(data_chunk, "IDAT", (size_t)(end_of_zlib - zlib));
    uint8_t *end = finish_chunk(end_chunk, "IEND", 0);
    *png_out = png;
    *png_length = (size_t)(end - png);
    return 0;
}
