"""The package's version (one place: ``source_anchors.__version__`` and the build read it from here)."""

__version__ = "0.1.0"

#: Bump when the resolution rules change, so cached locations are recomputed (here, beside the
#: package's version, so that the warm check reads it without the records; ``model.records``
#: exports it too).
RESOLVER_VERSION = (
    19  # 10: closest names resolve; static conditions, data descriptors; 12: D[T]() calls;
)
# 13: sys.hexversion tests decided, names imported from sys read as sys.<name>; 14: tree-sitter
# languages wired; 15: a .h header read as C++ when its text shows C++; 16: Rust impls of references
# and C specifier macros, typedefs of function pointers, flat C names, a function before a macro;
# 17: a JSX element's children are elements of the ::match element rule; 18: an API link of a name
# rebound to a compiled module's is the compiled definition; PyO3's cfg_attr and declarative
# modules, pybind11 binders taking py::module by value, &Class::operator() read; 19: a lone \r
# breaks a line in a grammar's file too
