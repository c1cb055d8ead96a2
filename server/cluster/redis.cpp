#include "server/cluster/redis.hpp"

#include <hiredis/hiredis.h>
#include <poll.h>
#include <sys/time.h>

#include <algorithm>
#include <cerrno>
#include <charconv>

namespace tanbo_server::server::cluster {
namespace {

timeval to_timeval(std::chrono::milliseconds ms) {
  return timeval{static_cast<time_t>(ms.count() / 1000),
                 static_cast<suseconds_t>((ms.count() % 1000) * 1000)};
}

RedisReply convert(const redisReply* r) {
  switch (r->type) {
    case REDIS_REPLY_STRING:
      return {std::string(r->str, r->len)};
    case REDIS_REPLY_STATUS:
      return {RedisStatus{std::string(r->str, r->len)}};
    case REDIS_REPLY_ERROR:
      return {RedisError{std::string(r->str, r->len)}};
    case REDIS_REPLY_INTEGER:
      return {r->integer};
    case REDIS_REPLY_ARRAY: {
      RedisArray out;
      out.reserve(r->elements);
      for (std::size_t i = 0; i < r->elements; ++i) out.push_back(convert(r->element[i]));
      return {std::move(out)};
    }
    default:
      return {RedisNil{}};
  }
}

// Takes ownership of what hiredis allocated.
RedisReply take(void* raw) {
  auto* r = static_cast<redisReply*>(raw);
  RedisReply out = convert(r);
  freeReplyObject(r);
  return out;
}

}  // namespace

std::optional<RedisAddress> parse_redis_url(std::string_view url, std::string& error) {
  constexpr std::string_view scheme = "redis://";
  if (!url.starts_with(scheme)) {
    error = "expected redis://HOST[:PORT], got '" + std::string(url) + "'";
    return std::nullopt;
  }
  std::string_view rest = url.substr(scheme.size());
  if (rest.find_first_of("@/?#") != std::string_view::npos) {
    error = "expected redis://HOST[:PORT] (no user, password, database or path), got '" +
            std::string(url) + "'";
    return std::nullopt;
  }
  RedisAddress a;
  std::string_view port;
  if (rest.starts_with('[')) {  // [IPv6]:port
    auto close = rest.find(']');
    if (close == std::string_view::npos) {
      error = "unclosed '[' in '" + std::string(url) + "'";
      return std::nullopt;
    }
    a.host = rest.substr(1, close - 1);
    rest = rest.substr(close + 1);
    if (!rest.empty() && !rest.starts_with(':')) {
      error = "expected :PORT after ']' in '" + std::string(url) + "'";
      return std::nullopt;
    }
    if (!rest.empty()) port = rest.substr(1);
  } else if (auto colon = rest.find(':'); colon != std::string_view::npos) {
    a.host = rest.substr(0, colon);
    port = rest.substr(colon + 1);
    if (port.find(':') != std::string_view::npos) {
      error = "an IPv6 host goes in brackets: redis://[ADDR]:PORT, got '" + std::string(url) + "'";
      return std::nullopt;
    }
  } else {
    a.host = rest;
  }
  if (a.host.empty()) {
    error = "no host in '" + std::string(url) + "'";
    return std::nullopt;
  }
  if (port.data() != nullptr) {
    unsigned v = 0;
    auto [p, ec] = std::from_chars(port.data(), port.data() + port.size(), v);
    if (port.empty() || ec != std::errc{} || p != port.data() + port.size() || v == 0 ||
        v > 65535) {
      error = "expected a port 1-65535 in '" + std::string(url) + "'";
      return std::nullopt;
    }
    a.port = static_cast<std::uint16_t>(v);
  }
  return a;
}

std::string redis_url(const RedisAddress& a) {
  const bool v6 = a.host.find(':') != std::string::npos;
  return "redis://" + (v6 ? "[" + a.host + "]" : a.host) + ":" + std::to_string(a.port);
}

std::string RedisReply::error() const {
  auto* e = std::get_if<RedisError>(&value);
  return e ? e->text : std::string();
}

std::optional<std::string> RedisReply::text() const {
  if (auto* s = std::get_if<std::string>(&value)) return *s;
  if (auto* s = std::get_if<RedisStatus>(&value)) return s->text;
  return std::nullopt;
}

std::optional<long long> RedisReply::integer() const {
  if (auto* n = std::get_if<long long>(&value)) return *n;
  return std::nullopt;
}

RedisConnection::RedisConnection(RedisAddress address, RedisTimeouts timeouts)
    : address_(std::move(address)), timeouts_(timeouts) {}

RedisConnection::~RedisConnection() {
  if (ctx_) redisFree(ctx_);
}

bool RedisConnection::connect() {
  if (ctx_) return true;
  redisContext* c =
      redisConnectWithTimeout(address_.host.c_str(), address_.port, to_timeval(timeouts_.connect));
  if (c == nullptr || c->err) {
    std::string why =
        "cannot connect to " + redis_url(address_) + ": " + (c ? c->errstr : "out of memory");
    if (c) redisFree(c);
    drop(why);
    return false;
  }
  redisSetTimeout(c, to_timeval(timeouts_.command));
  redisEnableKeepAlive(c);
  ctx_ = c;
  ++generation_;
  backoff_ = std::chrono::milliseconds(0);
  return true;
}

bool RedisConnection::ensure() {
  if (ctx_) return true;
  if (std::chrono::steady_clock::now() < retry_at_) return false;
  return connect();
}

void RedisConnection::drop(const std::string& why) {
  last_error_ = why;
  if (ctx_) redisFree(ctx_);
  ctx_ = nullptr;
  backoff_ = std::clamp(backoff_ * 2, timeouts_.backoff_min, timeouts_.backoff_max);
  retry_at_ = std::chrono::steady_clock::now() + backoff_;
}

RedisReply RedisConnection::command(const std::vector<std::string>& args) {
  if (!ensure()) return {RedisError{"connection: " + last_error_}};
  std::vector<const char*> argv;
  std::vector<std::size_t> lens;
  argv.reserve(args.size());
  lens.reserve(args.size());
  for (const auto& a : args) {
    argv.push_back(a.data());
    lens.push_back(a.size());
  }
  void* raw = redisCommandArgv(ctx_, static_cast<int>(args.size()), argv.data(), lens.data());
  if (raw == nullptr) {
    drop(std::string("lost the connection: ") + ctx_->errstr);
    return {RedisError{"connection: " + last_error_}};
  }
  return take(raw);
}

std::vector<RedisReply> RedisConnection::pipeline(
    const std::vector<std::vector<std::string>>& commands) {
  std::vector<RedisReply> out;
  out.reserve(commands.size());
  auto fail_rest = [&] {
    while (out.size() < commands.size()) out.push_back({RedisError{"connection: " + last_error_}});
    return std::move(out);
  };
  if (!ensure()) return fail_rest();
  std::vector<const char*> argv;
  std::vector<std::size_t> lens;
  for (const auto& args : commands) {
    argv.clear();
    lens.clear();
    for (const auto& a : args) {
      argv.push_back(a.data());
      lens.push_back(a.size());
    }
    if (redisAppendCommandArgv(ctx_, static_cast<int>(args.size()), argv.data(), lens.data()) !=
        REDIS_OK) {
      drop(std::string("cannot queue a command: ") + ctx_->errstr);
      return fail_rest();
    }
  }
  for (std::size_t i = 0; i < commands.size(); ++i) {
    void* raw = nullptr;
    if (redisGetReply(ctx_, &raw) != REDIS_OK || raw == nullptr) {
      drop(std::string("lost the connection: ") + ctx_->errstr);
      return fail_rest();
    }
    out.push_back(take(raw));
  }
  return out;
}

std::optional<RedisReply> RedisConnection::next_push(std::chrono::milliseconds wait) {
  if (!ctx_) return std::nullopt;
  void* raw = nullptr;
  // A message may already sit in hiredis' buffer, read along with an earlier one.
  if (redisReaderGetReply(ctx_->reader, &raw) != REDIS_OK) {
    drop("a bad reply from Redis");
    return std::nullopt;
  }
  if (raw) return take(raw);
  pollfd pfd{ctx_->fd, POLLIN, 0};
  int ready = ::poll(&pfd, 1, static_cast<int>(wait.count()));
  if (ready == 0 || (ready < 0 && errno == EINTR)) return std::nullopt;
  if (ready < 0 || redisBufferRead(ctx_) != REDIS_OK) {
    drop(std::string("lost the connection: ") + (ctx_->err ? ctx_->errstr : "poll failed"));
    return std::nullopt;
  }
  if (redisReaderGetReply(ctx_->reader, &raw) != REDIS_OK) {
    drop("a bad reply from Redis");
    return std::nullopt;
  }
  return raw ? std::optional(take(raw)) : std::nullopt;
}

}  // namespace tanbo_server::server::cluster
