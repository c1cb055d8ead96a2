// The one translation unit that compiles Asio, its TLS layer and Beast
// (BOOST_*_SEPARATE_COMPILATION).

// GCC 12 at -O2 with ASan misreads basic_parser::content_length()'s boost::optional as
// maybe-uninitialized; the warning is in Boost's code, not ours.
// Clang has no such warning (and -Werror refuses unknown ones).
#pragma GCC diagnostic push
#if !defined(__clang__)
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif
#include <boost/asio/impl/src.hpp>
#include <boost/asio/ssl/impl/src.hpp>
#include <boost/beast/src.hpp>
#pragma GCC diagnostic pop
