/* SPDX-License-Identifier: MIT */
#include "copse/status.h"

const char *copse_status_str(copse_status status)
{
    switch (status) {
    case COPSE_OK: return "COPSE_OK: success";
    case COPSE_ERR_NULL: return "COPSE_ERR_NULL: required pointer is NULL";
    case COPSE_ERR_NOMEM: return "COPSE_ERR_NOMEM: arena too small";
    case COPSE_ERR_PARAM: return "COPSE_ERR_PARAM: parameter out of range";
    case COPSE_ERR_NONFINITE: return "COPSE_ERR_NONFINITE: NaN or infinite coordinate";
    case COPSE_ERR_INDEX: return "COPSE_ERR_INDEX: index out of range";
    case COPSE_ERR_DEGENERATE: return "COPSE_ERR_DEGENERATE: no area or volume";
    case COPSE_ERR_TOO_LARGE: return "COPSE_ERR_TOO_LARGE: count too large to index";
    case COPSE_ERR_ALIGN: return "COPSE_ERR_ALIGN: misaligned pointer or stride";
    case COPSE_ERR_DIMENSION: return "COPSE_ERR_DIMENSION: query dimension does not match tree";
    case COPSE_ERR_KIND: return "COPSE_ERR_KIND: query needs another primitive kind";
    case COPSE_ERR_EMPTY_RANGE: return "COPSE_ERR_EMPTY_RANGE: empty or inverted query range";
    case COPSE_ERR_TOO_DEEP: return "COPSE_ERR_TOO_DEEP: tree deeper than this build's depth cap (config.h)";
    case COPSE_ERR_NONCONVEX: return "COPSE_ERR_NONCONVEX: polygon is not convex";
    case COPSE_ERR_UNBOUNDED: return "COPSE_ERR_UNBOUNDED: planes enclose no finite region";
    case COPSE_ERR_BLOB_TRUNCATED: return "COPSE_ERR_BLOB_TRUNCATED: blob shorter than it says";
    case COPSE_ERR_BLOB_MAGIC: return "COPSE_ERR_BLOB_MAGIC: not a copse blob";
    case COPSE_ERR_BLOB_BYTE_ORDER: return "COPSE_ERR_BLOB_BYTE_ORDER: byte-order marker is neither order's";
    case COPSE_ERR_BLOB_VERSION: return "COPSE_ERR_BLOB_VERSION: unsupported blob format version";
    case COPSE_ERR_BLOB_KIND: return "COPSE_ERR_BLOB_KIND: blob holds another tree kind";
    case COPSE_ERR_BLOB_CRC: return "COPSE_ERR_BLOB_CRC: blob checksum mismatch";
    case COPSE_ERR_BLOB_HEADER: return "COPSE_ERR_BLOB_HEADER: blob header field out of range";
    case COPSE_ERR_BLOB_SECTION: return "COPSE_ERR_BLOB_SECTION: bad blob section table";
    case COPSE_ERR_BLOB_NODE: return "COPSE_ERR_BLOB_NODE: inconsistent node links in blob";
    case COPSE_ERR_BLOB_PRIM: return "COPSE_ERR_BLOB_PRIM: bad primitive index in blob";
    case COPSE_ERR_BLOB_BOUNDS: return "COPSE_ERR_BLOB_BOUNDS: bad bounds in blob";
    case COPSE_ERR_BLOB_DEPTH: return "COPSE_ERR_BLOB_DEPTH: blob depth does not match its tree";
    case COPSE_ERR_BLOB_SOURCE: return "COPSE_ERR_BLOB_SOURCE: mesh or boxes do not match the blob";
    case COPSE_ERR_HOST_ORDER: return "COPSE_ERR_HOST_ORDER: blob not in this host's byte order (copse_blob_to_host converts it)";
    case COPSE_ERR_READ_ONLY: return "COPSE_ERR_READ_ONLY: tree is a read-only view of a blob";
    case COPSE_ERR_LIMIT: return "COPSE_ERR_LIMIT: work limit reached before the answer";
    case COPSE_ERR_CONFIG: return "COPSE_ERR_CONFIG: caller and library built with different settings (config.h)";
    }
    return "COPSE_ERR_?: unknown status";
}
