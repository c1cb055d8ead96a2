#pragma once
// A synchronous Redis connection (hiredis): one per thread that owns it, never shared. Commands
// go as argument vectors, so nothing is ever quoted or escaped. A lost connection is reopened by
// the next command once its backoff has passed; meanwhile commands fail at once with an error
// reply, so the owning thread never blocks longer than the timeout.
#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <variant>
#include <vector>

struct redisContext;

namespace tanbo_server::server::cluster {

// Where the Redis server is: redis://HOST[:PORT] (PORT defaults to 6379; an IPv6 HOST goes in
// brackets).
struct RedisAddress {
  std::string host;
  std::uint16_t port = 6379;
  friend bool operator==(const RedisAddress&, const RedisAddress&) = default;
};
// nullopt and `error` set when `url` is not of that form.
std::optional<RedisAddress> parse_redis_url(std::string_view url, std::string& error);
// The address as parse_redis_url reads it, port included.
std::string redis_url(const RedisAddress& address);

struct RedisReply;
// RESP's reply kinds. Status is "+OK"; an Error is Redis refusing (or this side failing to talk
// to it: the text then starts with "connection:").
struct RedisNil {
  friend bool operator==(const RedisNil&, const RedisNil&) = default;
};
struct RedisStatus {
  std::string text;
};
struct RedisError {
  std::string text;
};
using RedisArray = std::vector<RedisReply>;
struct RedisReply {
  std::variant<RedisNil, RedisStatus, RedisError, long long, std::string, RedisArray> value;

  bool is_error() const { return std::holds_alternative<RedisError>(value); }
  bool is_nil() const { return std::holds_alternative<RedisNil>(value); }
  // The error's text, or empty when this is no error.
  std::string error() const;
  // A bulk string or status as text; nullopt for the other kinds.
  std::optional<std::string> text() const;
  std::optional<long long> integer() const;
  const RedisArray* array() const { return std::get_if<RedisArray>(&value); }
};

struct RedisTimeouts {
  std::chrono::milliseconds connect{1000};
  std::chrono::milliseconds command{1000};
  std::chrono::milliseconds backoff_min{100};   // doubles after each failed reconnect...
  std::chrono::milliseconds backoff_max{2000};  // ...up to this
};

class RedisConnection {
 public:
  explicit RedisConnection(RedisAddress address, RedisTimeouts timeouts = {});
  ~RedisConnection();
  RedisConnection(const RedisConnection&) = delete;
  RedisConnection& operator=(const RedisConnection&) = delete;

  // Connects now if not connected, ignoring the backoff; false (and last_error()) on failure.
  bool connect();
  bool connected() const { return ctx_ != nullptr; }
  const std::string& last_error() const { return last_error_; }
  // Counts the connections made: a change means what Redis held may have gone (a restart).
  std::uint64_t generation() const { return generation_; }

  // Runs one command. A connection-level failure drops the connection (the next command
  // reconnects, after the backoff) and answers a RedisError starting with "connection:".
  RedisReply command(const std::vector<std::string>& args);
  // Runs the commands in one round trip: a reply each, in order. A connection-level failure
  // answers every command not yet answered with that error.
  std::vector<RedisReply> pipeline(const std::vector<std::vector<std::string>>& commands);

  // Subscriber mode (after a SUBSCRIBE sent through command()): the next pushed message, or
  // nullopt when none came within `wait` (the connection stays usable) or the connection failed
  // (connected() is then false).
  std::optional<RedisReply> next_push(std::chrono::milliseconds wait);

 private:
  bool ensure();  // connected, reconnecting when the backoff allows
  void drop(const std::string& why);

  RedisAddress address_;
  RedisTimeouts timeouts_;
  redisContext* ctx_ = nullptr;
  std::uint64_t generation_ = 0;
  std::string last_error_;
  std::chrono::milliseconds backoff_{0};
  std::chrono::steady_clock::time_point retry_at_{};
};

}  // namespace tanbo_server::server::cluster
