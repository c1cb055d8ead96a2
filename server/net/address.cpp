#include "server/net/address.hpp"

#include <algorithm>
#include <array>
#include <charconv>

namespace tanbo_server::server {
namespace {

namespace ip = boost::asio::ip;

// IPv4-mapped IPv6 (::ffff:a.b.c.d, what a dual-stack socket reports) as plain IPv4.
ip::address unmapped(const ip::address& a) {
  if (a.is_v6() && a.to_v6().is_v4_mapped()) return ip::make_address_v4(ip::v4_mapped, a.to_v6());
  return a;
}

std::optional<ip::address> parse_address(std::string_view text) {
  boost::system::error_code ec;
  auto a = ip::make_address(std::string(text), ec);
  if (ec) return std::nullopt;
  return unmapped(a);
}

}  // namespace

bool Network::contains(const ip::address& raw) const {
  const ip::address a = unmapped(raw);
  if (a.is_v4() != base.is_v4()) return false;
  auto bytes_of = [](const ip::address& x) {
    std::array<unsigned char, 16> out{};
    if (x.is_v4()) {
      auto b = x.to_v4().to_bytes();
      std::copy(b.begin(), b.end(), out.begin());
    } else {
      out = x.to_v6().to_bytes();
    }
    return out;
  };
  const auto x = bytes_of(a), y = bytes_of(base);
  unsigned bits = prefix;
  for (std::size_t i = 0; bits > 0; ++i, bits = bits >= 8 ? bits - 8 : 0) {
    const unsigned char mask = bits >= 8 ? 0xFF : static_cast<unsigned char>(0xFF << (8 - bits));
    if ((x[i] & mask) != (y[i] & mask)) return false;
  }
  return true;
}

std::optional<Network> parse_network(std::string_view text) {
  auto slash = text.find('/');
  auto base = parse_address(text.substr(0, slash));
  if (!base) return std::nullopt;
  const unsigned width = base->is_v4() ? 32 : 128;
  unsigned prefix = width;
  if (slash != std::string_view::npos) {
    auto digits = text.substr(slash + 1);
    auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), prefix);
    if (digits.empty() || ec != std::errc{} || end != digits.data() + digits.size() ||
        prefix > width)
      return std::nullopt;
  }
  return Network{*base, prefix};
}

TrustedProxies::TrustedProxies(const std::vector<std::string>& networks) {
  for (const auto& n : networks)
    if (auto parsed = parse_network(n)) networks_.push_back(*parsed);
}

bool TrustedProxies::trusts(const ip::address& a) const {
  for (const auto& n : networks_)
    if (n.contains(a)) return true;
  return false;
}

ip::address client_of(const ip::address& peer, std::string_view forwarded_for,
                      const TrustedProxies& trusted) {
  ip::address client = unmapped(peer);
  while (trusted.trusts(client) && !forwarded_for.empty()) {
    auto comma = forwarded_for.rfind(',');
    std::string_view hop =
        comma == std::string_view::npos ? forwarded_for : forwarded_for.substr(comma + 1);
    forwarded_for =
        comma == std::string_view::npos ? std::string_view() : forwarded_for.substr(0, comma);
    while (!hop.empty() && (hop.front() == ' ' || hop.front() == '\t')) hop.remove_prefix(1);
    while (!hop.empty() && (hop.back() == ' ' || hop.back() == '\t')) hop.remove_suffix(1);
    auto next = parse_address(hop);
    if (!next) break;
    client = *next;
  }
  return client;
}

std::string limit_key(const ip::address& raw) {
  const ip::address a = unmapped(raw);
  if (a.is_v4()) return a.to_string();
  auto bytes = a.to_v6().to_bytes();
  std::fill(bytes.begin() + 8, bytes.end(), 0);
  return ip::address_v6(bytes).to_string() + "/64";
}

}  // namespace tanbo_server::server
