#include "server/store/store.hpp"

#include <utility>

#include "server/store/detail.hpp"
#include "server/store/pg_store.hpp"
#include "server/store/sqlite_store.hpp"

namespace tanbo_server::server::store {

using detail::str;
using Code = WriteResult::Code;

std::string_view to_string(WriteResult::Code c) {
  switch (c) {
    case Code::ok:
      return "ok";
    case Code::duplicate:
      return "duplicate";
    case Code::not_found:
      return "not_found";
    case Code::invalid:
      return "invalid";
    case Code::failed:
      return "failed";
    case Code::fenced:
      return "fenced";
  }
  return "failed";
}

Json game_options(const Json& room_options, Seat first, bool first_drawn) {
  Json o = room_options.is_object() ? room_options : Json::object();
  // R5, R6: a drawn first seat is drawn again on replay, so the record must not fix it.
  if (first_drawn) {
    if (!o.contains("first") || !o["first"].is_string()) o["first"] = "random";
  } else {
    o["first"] = first;
  }
  return o;
}

std::string game_id(std::string_view room, int game_no) {
  return str(room) + "-" + std::to_string(game_no);
}

std::int64_t Store::sql_int(const SqlValue& v) {
  if (auto i = std::get_if<std::int64_t>(&v)) return *i;
  if (auto d = std::get_if<double>(&v)) return std::int64_t(*d);
  if (auto s = std::get_if<std::string>(&v)) return std::stoll(*s);
  throw StoreError("a NULL where a number was expected");
}

double Store::sql_real(const SqlValue& v) {
  if (auto d = std::get_if<double>(&v)) return *d;
  if (auto i = std::get_if<std::int64_t>(&v)) return double(*i);
  if (auto s = std::get_if<std::string>(&v)) return std::stod(*s);
  throw StoreError("a NULL where a number was expected");
}

std::string Store::sql_text(const SqlValue& v) {
  if (auto s = std::get_if<std::string>(&v)) return *s;
  if (auto i = std::get_if<std::int64_t>(&v)) return std::to_string(*i);
  return {};
}

Json Store::sql_text_or_null(const SqlValue& v) { return sql_null(v) ? Json() : Json(sql_text(v)); }

Store::SqlValue Store::or_null(std::string_view s) {
  return s.empty() ? SqlValue(nullptr) : SqlValue(str(s));
}

std::int64_t Store::stored_int(const SqlValue& v, std::string_view where, std::string_view column) {
  if (auto i = std::get_if<std::int64_t>(&v)) return *i;
  throw StoreError(str(where) + ": " + str(column) + " is not an integer");
}

Json Store::stored_json(const SqlValue& v, std::string_view where, std::string_view column) {
  auto text = std::get_if<std::string>(&v);
  Json j = text ? Json::parse(*text, nullptr, false) : Json(Json::value_t::discarded);
  if (j.is_discarded()) throw StoreError(str(where) + ": " + str(column) + " is not JSON");
  return j;
}

std::string live_game_sql(std::optional<std::int64_t> finished_since) {
  if (!finished_since) return "g.finished_at IS NULL";
  return "(g.finished_at IS NULL OR g.finished_at >= " + std::to_string(*finished_since) + ")";
}

engine::Record LoadedRoom::record() const {
  engine::Record r;
  r.game = row.game;
  r.options = game_options(row.options, row.first, row.first_drawn);
  r.setup = row.setup;
  r.players = row.players;
  r.seed = engine::seed_from_hex(row.seed).value_or(engine::Seed{});
  r.actions.reserve(actions.size());
  for (const auto& a : actions) r.actions.push_back({a.seat, a.action});
  return r;
}

std::unique_ptr<Store> Store::open(const std::filesystem::path& path, Durability durability,
                                   std::string& error) {
  return SqliteStore::open(path, durability, error);
}

std::unique_ptr<Store> Store::open_url(std::string_view url, Durability durability,
                                       std::string& error) {
  if (url.starts_with("postgresql://") || url.starts_with("postgres://"))
    return PgStore::open(str(url), error);
  if (url.starts_with("sqlite:")) url.remove_prefix(7);
  if (url.empty()) return error = "store: an empty SQLite path", nullptr;
  return SqliteStore::open(std::filesystem::path(str(url)), durability, error);
}

void Store::after_commit(std::function<void(bool committed)> f) {
  if (grouped_)
    after_commit_.push_back(std::move(f));
  else
    f(true);
}

std::vector<std::function<void(bool)>> Store::take_after_commit() {
  return std::exchange(after_commit_, {});
}

}  // namespace tanbo_server::server::store
