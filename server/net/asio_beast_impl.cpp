// The one translation unit that compiles Asio and Beast (BOOST_*_SEPARATE_COMPILATION).
// Add <boost/asio/ssl/impl/src.hpp> here when TLS arrives.

// GCC 12 at -O2 with ASan misreads basic_parser::content_length()'s boost::optional as
// maybe-uninitialized; the warning is in Boost's code, not ours.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#include <boost/asio/impl/src.hpp>
#include <boost/beast/src.hpp>
#pragma GCC diagnostic pop
