#include <stdlib.h>
#include <string.h>

struct buffer {
    char *data;
    size_t len;
    size_t cap;
};

/* Grow the buffer to hold at least need bytes. */
static int
buffer_grow(struct buffer *b, size_t need)
{
    size_t cap = b->cap ? b->cap : 16;
    while (cap < need) {
        cap *= 2;
    }
    char *data = realloc(b->data, cap);
    if (data == NULL) {
        return -1;
    }
    b->data = data;
    b->cap = cap;
    return 0;
}

int
buffer_append(struct buffer *b, const char *text, size_t n)
{
    if (b->len + n > b->cap && buffer_grow(b, b->len + n) != 0) {
        return -1;
    }
    memcpy(b->data + b->len, text, n);
    b->len += n;
    return 0;
}
