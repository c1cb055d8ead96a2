#include "server/api/serve.hpp"

#include "engine/core/registry.hpp"
#include "protocol/server.hpp"
#include "server/api/account.hpp"
#include "server/api/admin.hpp"
#include "server/api/api.hpp"
#include "server/api/documents.hpp"
#include "server/api/routes.hpp"
#include "server/rooms/lobby.hpp"
#include "server/rooms/service.hpp"
#include "server/store/worker.hpp"

namespace tanbo_server::server::api {
Response to_response(unsigned version, bool keep_alive, bool head, const Reply& reply) {
  Response res{static_cast<http::status>(reply.status), version};
  res.set(http::field::server, "tanbo-server");
  res.set(http::field::content_type, "application/json");
  res.set(http::field::cache_control, "no-store");
  res.keep_alive(keep_alive);
  res.body() = reply.body.dump();
  res.prepare_payload();
  if (head) res.body().clear();  // Content-Length stays the GET's
  return res;
}

namespace {

// GET /api/rooms?game=: the lobby, as the `rooms` reply lists it; GET /api/pools?game=: its
// Play now pools alone. Answered here, on the network thread: the lobby is in memory behind its
// own mutex, and the store is not involved.
Reply lobby_reply(std::string_view target, const NetContext& ctx, bool pools_only) {
  auto params = decode_query(target);
  if (!params) return error_reply(400, "bad_parameter", "the query string is badly encoded");
  std::optional<std::string> game;
  for (const auto& [k, v] : *params)
    if (k == "game" && !game) {
      if (!engine::find_game(v))
        return error_reply(400, "bad_parameter", "game: expected a game id, got '" + v + "'");
      game = v;
    }
  const RoomService* rooms = ctx.rooms.get();
  if (!rooms) return error_reply(503, "rooms_unavailable", "this server hosts no rooms");
  if (pools_only) return {200, {{"pools", rooms->lobby().pools(game)}}};
  return {200, {{"rooms", rooms->lobby().listing(game)}, {"pools", rooms->lobby().pools(game)}}};
}

// GET /api/players/{id}/games?waiting=1: the games the player holds a seat in that are not
// finished (with waiting=1, those waiting for its decision), from the live lobby like `my_games`.
constexpr std::string_view kPlayers = "/api/players/", kGames = "/games";

bool is_player_games(std::string_view path) {
  if (!path.starts_with(kPlayers) || !path.ends_with(kGames)) return false;
  auto id = path.substr(kPlayers.size(), path.size() - kPlayers.size() - kGames.size());
  return !id.empty() && id.find('/') == std::string_view::npos;
}

Reply player_games_reply(std::string_view target, const NetContext& ctx) {
  const std::string_view path = target.substr(0, target.find('?'));
  auto params = decode_query(target);
  if (!params) return error_reply(400, "bad_parameter", "the query string is badly encoded");
  bool waiting = false;
  for (const auto& [k, v] : *params)
    if (k == "waiting") {
      if (v != "0" && v != "1" && v != "true" && v != "false")
        return error_reply(400, "bad_parameter", "waiting: expected 1 or 0, got '" + v + "'");
      waiting = v == "1" || v == "true";
    }
  const RoomService* rooms = ctx.rooms.get();
  if (!rooms) return error_reply(503, "rooms_unavailable", "this server hosts no rooms");
  const std::string id(path.substr(kPlayers.size(), path.size() - kPlayers.size() - kGames.size()));
  return {200, {{"games", rooms->lobby().games_of(id, waiting)}}};
}

// The steps of a finished game, after the store read: one slice of the replay per store job, each
// posted behind whatever queued meanwhile, so a room's append waits at most one slice, never a
// whole game. The worker is alive while its own job runs, hence the plain pointer.
void replay_slices(std::shared_ptr<StepsReplay> replay, store::StoreWorker* worker,
                   std::function<void(const Reply&)> send) {
  if (replay->advance(kStepsSlice)) return send(replay->reply());
  auto next = [replay, worker, send](store::Store&) { replay_slices(replay, worker, send); };
  if (!worker->post(std::move(next)))
    send(error_reply(503, "store_unavailable", "the store is shutting down"));
}

}  // namespace

void serve(const http::request<http::string_body>& req, const NetContext& ctx, std::string address,
           Respond respond) {
  const unsigned version = req.version();
  const bool keep_alive = req.keep_alive();
  const bool head = req.method() == http::verb::head;
  std::string_view target = req.target();
  if (auto refusal = unrouted(req.method_string(), target.substr(0, target.find('?'))))
    return respond(to_response(version, keep_alive, head, *refusal));
  if (const Document* doc = find_document(target.substr(0, target.find('?'))))
    return respond(document_response(req, *doc));
  if (is_admin_path(target.substr(0, target.find('?'))))
    return serve_admin(req, ctx, address, respond);
  if (is_account_path(target.substr(0, target.find('?'))))
    return serve_account(req, ctx, std::move(address), respond);
  if (auto path = target.substr(0, target.find('?'));
      path == "/api/rooms" || path == "/api/pools") {
    if (req.method() != http::verb::get && !head)
      return respond(to_response(version, keep_alive, head,
                                 error_reply(405, "bad_method", "use GET or HEAD")));
    return respond(
        to_response(version, keep_alive, head, lobby_reply(target, ctx, path == "/api/pools")));
  }
  if (auto path = target.substr(0, target.find('?')); is_player_games(path)) {
    if (req.method() != http::verb::get && !head)
      return respond(to_response(version, keep_alive, head,
                                 error_reply(405, "bad_method", "use GET or HEAD")));
    return respond(to_response(version, keep_alive, head, player_games_reply(target, ctx)));
  }
  auto parsed = parse(req.method_string(), req.target());
  if (auto* refusal = std::get_if<Reply>(&parsed))
    return respond(to_response(version, keep_alive, head, *refusal));
  if (!ctx.store)
    return respond(to_response(version, keep_alive, head,
                               error_reply(503, "store_unavailable", "no store is open")));

  auto send = [respond, version, keep_alive, head](const Reply& reply) {
    respond(to_response(version, keep_alive, head, reply));
  };
  auto job = [query = std::get<Query>(std::move(parsed)), respond, version, keep_alive, head, send,
              worker = ctx.store.get()](store::Store& store) {
    Reply reply;
    try {
      reply = answer(query, store);
    } catch (...) {
      respond(to_response(version, keep_alive, head,
                          error_reply(503, "store_unavailable", "the store failed to read")));
      throw;  // the worker logs it and turns unhealthy: /healthz says degraded
    }
    if (std::holds_alternative<GetSteps>(query) && reply.status == 200)
      return store.after_commit([replay = std::make_shared<StepsReplay>(std::move(reply.body)),
                                 worker, send](bool committed) {
        if (!committed)
          return send(error_reply(503, "store_unavailable", "the store failed to commit"));
        replay_slices(replay, worker, send);
      });
    // A read inside a group may show the group's writes: it answers once they are committed.
    store.after_commit(
        [respond, res = std::make_shared<Response>(to_response(version, keep_alive, head, reply)),
         version, keep_alive, head](bool committed) {
          if (committed) return respond(std::move(*res));
          respond(to_response(version, keep_alive, head,
                              error_reply(503, "store_unavailable", "the store failed to commit")));
        });
  };
  if (!ctx.store->post(std::move(job)))
    respond(to_response(version, keep_alive, head,
                        error_reply(503, "store_unavailable", "the store is shutting down")));
}

}  // namespace tanbo_server::server::api
