// server/net/address.hpp: networks, the X-Forwarded-For walk, the key the limits count by.
#include <catch2/catch.hpp>

#include "server/net/address.hpp"

using namespace tanbo_server::server;
namespace ip = boost::asio::ip;

TEST_CASE("networks: an address or a CIDR block, IPv4 or IPv6", "[server][address]") {
  auto n = parse_network("10.0.0.0/8");
  REQUIRE(n);
  CHECK(n->contains(ip::make_address("10.200.1.2")));
  CHECK_FALSE(n->contains(ip::make_address("11.0.0.1")));
  CHECK(n->contains(ip::make_address("::ffff:10.1.2.3")));  // what a dual-stack socket reports
  auto one = parse_network("192.168.1.9");
  REQUIRE(one);
  CHECK(one->contains(ip::make_address("192.168.1.9")));
  CHECK_FALSE(one->contains(ip::make_address("192.168.1.8")));
  auto v6 = parse_network("fd00::/8");
  REQUIRE(v6);
  CHECK(v6->contains(ip::make_address("fd12:3456::1")));
  CHECK_FALSE(v6->contains(ip::make_address("10.0.0.1")));
  CHECK(parse_network("172.16.0.0/12")->contains(ip::make_address("172.31.255.255")));
  CHECK_FALSE(parse_network("172.16.0.0/12")->contains(ip::make_address("172.32.0.0")));
  for (auto bad : {"", "10.0.0.0/33", "10.0.0/8", "nginx", "10.0.0.0/", "::/129", "1.2.3.4/x"})
    CHECK_FALSE(parse_network(bad));
}

TEST_CASE("X-Forwarded-For names the client only through trusted proxies", "[server][address]") {
  TrustedProxies trusted({"127.0.0.1", "172.16.0.0/12"});
  const auto proxy = ip::make_address("172.18.0.5");
  SECTION("from a trusted proxy, the hop it names") {
    CHECK(client_of(proxy, "203.0.113.7", trusted).to_string() == "203.0.113.7");
  }
  SECTION("through a chain of trusted proxies, the first untrusted hop from the right") {
    CHECK(client_of(proxy, "198.51.100.1, 203.0.113.7, 172.18.0.9", trusted).to_string() ==
          "203.0.113.7");
  }
  SECTION("what the client itself wrote in front is never believed") {
    CHECK(client_of(proxy, "10.9.9.9, 203.0.113.7", trusted).to_string() == "203.0.113.7");
  }
  SECTION("from anyone else, the header is ignored") {
    CHECK(client_of(ip::make_address("203.0.113.7"), "1.2.3.4", trusted).to_string() ==
          "203.0.113.7");
    CHECK(client_of(proxy, "1.2.3.4", TrustedProxies()).to_string() == "172.18.0.5");
  }
  SECTION("an unreadable hop stops the walk at the proxy") {
    CHECK(client_of(proxy, "not-an-address", trusted).to_string() == "172.18.0.5");
  }
}

TEST_CASE("limits count an IPv4 address, or an IPv6 /64", "[server][address]") {
  CHECK(limit_key(ip::make_address("203.0.113.7")) == "203.0.113.7");
  CHECK(limit_key(ip::make_address("::ffff:203.0.113.7")) == "203.0.113.7");
  CHECK(limit_key(ip::make_address("2001:db8:1:2:aaaa::1")) == "2001:db8:1:2::/64");
  CHECK(limit_key(ip::make_address("2001:db8:1:2:bbbb::9")) ==
        limit_key(ip::make_address("2001:db8:1:2:aaaa::1")));
}
