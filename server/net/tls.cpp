#include "server/net/tls.hpp"

#include <openssl/ssl.h>

#include <boost/asio/ssl/context.hpp>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <stdexcept>

namespace tanbo_server::server {
namespace ssl = boost::asio::ssl;

namespace {

// Asio's message for a missing file is OpenSSL's "system lib"; say what the operator can act on.
void require_readable(const char* flag, const std::string& path) {
  std::ifstream f(path);
  if (!f) throw std::runtime_error(std::string(flag) + " " + path + ": " + std::strerror(errno));
}

}  // namespace

std::shared_ptr<ssl::context> make_server_tls(const std::string& cert, const std::string& key) {
  require_readable("--tls-cert", cert);
  require_readable("--tls-key", key);
  auto ctx = std::make_shared<ssl::context>(ssl::context::tls_server);
  ctx->set_options(ssl::context::default_workarounds | ssl::context::no_sslv2 |
                   ssl::context::no_sslv3 | ssl::context::no_tlsv1 | ssl::context::no_tlsv1_1 |
                   ssl::context::single_dh_use);
  boost::system::error_code ec;
  ctx->use_certificate_chain_file(cert, ec);
  if (ec)
    throw std::runtime_error("--tls-cert " + cert + ": not a PEM certificate (" + ec.message() +
                             ")");
  ctx->use_private_key_file(key, ssl::context::pem, ec);
  if (ec)
    throw std::runtime_error("--tls-key " + key + ": not a PEM private key (" + ec.message() + ")");
  if (SSL_CTX_check_private_key(ctx->native_handle()) != 1)
    throw std::runtime_error("--tls-key " + key + " is not the key of --tls-cert " + cert);
  return ctx;
}

std::string tls_files_problem(const std::string& cert, const std::string& key) {
  try {
    make_server_tls(cert, key);
  } catch (const std::exception& e) {
    return e.what();
  }
  return {};
}

std::shared_ptr<ssl::context> make_probe_tls() {
  auto ctx = std::make_shared<ssl::context>(ssl::context::tls_client);
  ctx->set_verify_mode(ssl::verify_none);
  return ctx;
}

}  // namespace tanbo_server::server
