#pragma once
// The Beast and Asio vocabulary of server/net.
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/strand.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/websocket.hpp>

namespace tanbo_server::server {

namespace beast = boost::beast;
namespace http = beast::http;
namespace websocket = beast::websocket;
namespace net = boost::asio;
using tcp = net::ip::tcp;

// A connection's strand, typed rather than any_io_executor: a move posts to, reads and writes on
// six connections, and every operation through the type-erased executor copied it and its strand
// several times.
using Strand = net::strand<net::io_context::executor_type>;
using Socket = net::basic_stream_socket<tcp, Strand>;  // an accepted connection, on its strand
using TcpStream = beast::basic_stream<tcp, Strand>;

// Errors that only mean the other side or our own shutdown ended the conversation.
inline bool is_benign(const beast::error_code& ec) {
  return ec == net::error::operation_aborted || ec == websocket::error::closed ||
         ec == http::error::end_of_stream || ec == net::error::eof ||
         ec == net::error::connection_reset || ec == beast::error::timeout ||
         ec == net::error::broken_pipe;
}

}  // namespace tanbo_server::server
