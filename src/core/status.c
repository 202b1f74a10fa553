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
    case COPSE_ERR_TOO_DEEP: return "COPSE_ERR_TOO_DEEP: tree deeper than COPSE_BVH_MAX_DEPTH";
    case COPSE_ERR_NONCONVEX: return "COPSE_ERR_NONCONVEX: polygon is not convex";
    case COPSE_ERR_UNBOUNDED: return "COPSE_ERR_UNBOUNDED: planes enclose no finite region";
    }
    return "COPSE_ERR_?: unknown status";
}
