#include "tests/server/net/tls_support.hpp"

#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/x509.h>

#include <boost/beast/ssl.hpp>
#include <cstdio>
#include <memory>
#include <random>
#include <stdexcept>

#include "server/net/beast.hpp"
#include "tests/server/support/protocol_client.hpp"

namespace tanbo_server::server::test {
namespace {

template <class T, void (*Free)(T*)>
using Owned = std::unique_ptr<T, std::integral_constant<decltype(Free), Free>>;

void require(bool ok, const char* what) {
  if (!ok) throw std::runtime_error(std::string("openssl: ") + what);
}

void write_file(const std::filesystem::path& path, auto&& write) {
  std::unique_ptr<FILE, int (*)(FILE*)> f(std::fopen(path.c_str(), "w"), &std::fclose);
  require(f != nullptr, "fopen");
  require(write(f.get()) == 1, "PEM write");
}

// Runs one asynchronous operation; fails the exchange if it has not completed in time.
template <class Start>
void run(net::io_context& ioc, const char* what, Start start) {
  bool done = false;
  beast::error_code result;
  start([&](beast::error_code ec, auto&&...) { result = ec, done = true; });
  ioc.restart();
  auto until = std::chrono::steady_clock::now() + kClientTimeout;
  while (!done && std::chrono::steady_clock::now() < until)
    ioc.run_one_for(std::chrono::milliseconds(50));
  if (!done) throw std::runtime_error(std::string(what) + ": timed out");
  if (result) throw boost::system::system_error(result, what);
}

tcp::endpoint loopback(std::uint16_t port) { return {net::ip::make_address_v4("127.0.0.1"), port}; }

net::ssl::context client_context() {
  net::ssl::context ctx(net::ssl::context::tls_client);
  ctx.set_verify_mode(net::ssl::verify_none);  // self-signed
  return ctx;
}

}  // namespace

SelfSigned::SelfSigned() {
  std::random_device rd;
  dir = std::filesystem::temp_directory_path() / ("tanbo-tls-" + std::to_string(rd()));
  std::filesystem::create_directories(dir);
  cert = dir / "cert.pem";
  key = dir / "key.pem";

  Owned<EVP_PKEY, EVP_PKEY_free> pkey(EVP_EC_gen("P-256"));
  require(pkey != nullptr, "EVP_EC_gen");
  Owned<X509, X509_free> x(X509_new());
  require(x != nullptr, "X509_new");
  X509_set_version(x.get(), 2);
  ASN1_INTEGER_set(X509_get_serialNumber(x.get()), 1);
  X509_gmtime_adj(X509_getm_notBefore(x.get()), 0);
  X509_gmtime_adj(X509_getm_notAfter(x.get()), 3600);
  require(X509_set_pubkey(x.get(), pkey.get()) == 1, "X509_set_pubkey");
  X509_NAME* name = X509_get_subject_name(x.get());
  X509_NAME_add_entry_by_txt(name, "CN", MBSTRING_ASC,
                             reinterpret_cast<const unsigned char*>("localhost"), -1, -1, 0);
  require(X509_set_issuer_name(x.get(), name) == 1, "X509_set_issuer_name");
  require(X509_sign(x.get(), pkey.get(), EVP_sha256()) > 0, "X509_sign");

  write_file(cert, [&](FILE* f) { return PEM_write_X509(f, x.get()); });
  write_file(key, [&](FILE* f) {
    return PEM_write_PrivateKey(f, pkey.get(), nullptr, nullptr, 0, nullptr, nullptr);
  });
}

SelfSigned::~SelfSigned() {
  std::error_code ec;
  std::filesystem::remove_all(dir, ec);
}

HttpReply https_get(std::uint16_t port, const std::string& target) {
  net::io_context ioc;
  auto ctx = client_context();
  beast::ssl_stream<beast::tcp_stream> stream(ioc, ctx);
  auto& tcp_layer = beast::get_lowest_layer(stream);
  tcp_layer.expires_after(kClientTimeout);
  run(ioc, "connect", [&](auto h) { tcp_layer.async_connect(loopback(port), h); });
  run(ioc, "tls handshake",
      [&](auto h) { stream.async_handshake(net::ssl::stream_base::client, h); });
  http::request<http::empty_body> req{http::verb::get, target, 11};
  req.set(http::field::host, "127.0.0.1");
  req.keep_alive(false);
  run(ioc, "https write", [&](auto h) { http::async_write(stream, req, h); });
  beast::flat_buffer buffer;
  http::response<http::string_body> res;
  run(ioc, "https read", [&](auto h) { http::async_read(stream, buffer, res, h); });
  HttpReply reply{res.result_int(), std::string(res[http::field::content_type]), res.body()};
  for (const auto& field : res) {
    std::string name(field.name_string());
    for (auto& c : name) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    reply.headers[name] = std::string(field.value());
  }
  return reply;
}

namespace {

using WssStream = websocket::stream<beast::ssl_stream<beast::tcp_stream>>;

// The TCP, TLS and WebSocket handshakes, each bounded by kClientTimeout; text frames from then on.
void open_wss(net::io_context& ioc, WssStream& ws, std::uint16_t port) {
  auto& tcp_layer = beast::get_lowest_layer(ws);
  tcp_layer.expires_after(kClientTimeout);
  run(ioc, "connect", [&](auto h) { tcp_layer.async_connect(loopback(port), h); });
  run(ioc, "tls handshake",
      [&](auto h) { ws.next_layer().async_handshake(net::ssl::stream_base::client, h); });
  tcp_layer.expires_never();
  ws.set_option(websocket::stream_base::timeout{kClientTimeout, kClientTimeout, false});
  run(ioc, "wss handshake", [&](auto h) { ws.async_handshake("127.0.0.1", "/ws", h); });
  ws.text(true);
}

}  // namespace

std::vector<std::string> wss_exchange(std::uint16_t port, const std::vector<std::string>& send,
                                      int replies) {
  net::io_context ioc;
  auto ctx = client_context();
  WssStream ws(ioc, ctx);
  open_wss(ioc, ws, port);
  for (const auto& s : send)
    run(ioc, "wss write", [&](auto h) { ws.async_write(net::buffer(s), h); });
  std::vector<std::string> out;
  beast::flat_buffer buffer;
  for (int i = 0; i < replies; ++i) {
    run(ioc, "wss read", [&](auto h) { ws.async_read(buffer, h); });
    out.push_back(beast::buffers_to_string(buffer.data()));
    buffer.consume(buffer.size());
  }
  run(ioc, "wss close", [&](auto h) { ws.async_close(websocket::close_code::normal, h); });
  return out;
}

struct WssClient::Impl {
  net::io_context ioc;
  net::ssl::context ctx = client_context();
  WssStream ws{ioc, ctx};
  beast::flat_buffer buffer;
};

WssClient::WssClient(std::uint16_t port) : impl_(std::make_unique<Impl>()) {
  open_wss(impl_->ioc, impl_->ws, port);
}

WssClient::~WssClient() = default;

void WssClient::send(const nlohmann::json& msg) {
  const std::string text = msg.dump();
  run(impl_->ioc, "wss write", [&](auto h) { impl_->ws.async_write(net::buffer(text), h); });
}

nlohmann::json WssClient::next() {
  auto& buffer = impl_->buffer;
  run(impl_->ioc, "wss read", [&](auto h) { impl_->ws.async_read(buffer, h); });
  const std::string text = beast::buffers_to_string(buffer.data());
  buffer.consume(buffer.size());
  auto msg = nlohmann::json::parse(text);
  if (auto p = schema_problems(msg); !p.empty())
    throw std::runtime_error("schema: " + p + " in " + text);
  return msg;
}

nlohmann::json WssClient::expect(std::string_view type) {
  auto msg = next();
  if (msg.at("type") != type)
    throw std::runtime_error("expected " + std::string(type) + ", got " + msg.dump());
  return msg;
}

void WssClient::close() {
  run(impl_->ioc, "wss close",
      [&](auto h) { impl_->ws.async_close(websocket::close_code::normal, h); });
}

}  // namespace tanbo_server::server::test
