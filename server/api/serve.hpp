#pragma once
// The API on the wire: refusals are answered at once; store work goes to the StoreWorker and the
// response comes back through `respond`, called once, from whichever thread finished the work.
// The caller moves the response onto its own executor before writing it.
#include <cstddef>
#include <functional>

#include "server/net/beast.hpp"
#include "server/net/context.hpp"

namespace tanbo_server::server::api {

// Actions replayed per store job for GET /api/games/{id}/steps: about 1 ms of CPU at most (Steere
// on 11x11, the dearest state), far less for the other games.
inline constexpr std::size_t kStepsSlice = 16;

using Response = http::response<http::string_body>;
using Respond = std::function<void(Response)>;

// `address`: the client's, for the limits on failed logins and admin calls (empty: not limited).
void serve(const http::request<http::string_body>& req, const NetContext& ctx, std::string address,
           Respond respond);

struct Reply;
// A reply as the API sends it: JSON, never cached; `head`: HEAD's, the body dropped.
Response to_response(unsigned version, bool keep_alive, bool head, const Reply& reply);

}  // namespace tanbo_server::server::api
