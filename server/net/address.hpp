#pragma once
// Who a connection comes from, for the per-address limits. Behind a proxy the operator lists
// (--trusted-proxies) the client is the one its X-Forwarded-For names; anyone else's header is
// ignored, so a client cannot choose its own address by sending one.
#include <boost/asio/ip/address.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tanbo_server::server {

// An address or a CIDR block ("10.0.0.0/8", "fd00::/8", "127.0.0.1").
struct Network {
  boost::asio::ip::address base;
  unsigned prefix = 0;  // bits; 32 or 128 for a single address
  bool contains(const boost::asio::ip::address& a) const;
};
std::optional<Network> parse_network(std::string_view text);

class TrustedProxies {
 public:
  TrustedProxies() = default;
  explicit TrustedProxies(const std::vector<std::string>& networks);  // each parse_network's
  bool trusts(const boost::asio::ip::address& a) const;
  bool empty() const { return networks_.empty(); }

 private:
  std::vector<Network> networks_;
};

// The client behind `peer`: walking X-Forwarded-For from its right end while the hop that
// handed the request on is a trusted proxy. An unreadable entry stops the walk there.
boost::asio::ip::address client_of(const boost::asio::ip::address& peer,
                                   std::string_view forwarded_for, const TrustedProxies& trusted);
// The key the limits count by: an IPv4 address, or the /64 an IPv6 address belongs to (one
// home or phone holds a whole /64); IPv4-mapped IPv6 counts as IPv4.
std::string limit_key(const boost::asio::ip::address& a);

}  // namespace tanbo_server::server
