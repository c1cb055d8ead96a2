#pragma once
// The executor the rooms and the lobby run their strands on: a concrete type rather than
// any_io_executor, so that a post to a room's strand (several per move) is a direct call, not a
// type-erased one that copies the executor.
#include <boost/asio/io_context.hpp>

namespace tanbo_server::server {

using RoomsExecutor = boost::asio::io_context::executor_type;

}  // namespace tanbo_server::server
