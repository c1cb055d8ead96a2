#pragma once
// TLS (https://, wss://): OpenSSL through Asio. With a certificate and key configured the port
// speaks TLS only, like most servers; a plain client fails its handshake.
#include <memory>
#include <string>

namespace boost::asio::ssl {
class context;
}

namespace tanbo_server::server {

// Empty when both files load and the key is the certificate's; else what is wrong, naming the
// file (tanbo-server exits 2 with it).
std::string tls_files_problem(const std::string& cert, const std::string& key);

// The server's context: TLS 1.2 and later. Throws std::runtime_error as tls_files_problem words it.
std::shared_ptr<boost::asio::ssl::context> make_server_tls(const std::string& cert,
                                                           const std::string& key);

// A client context that does not verify the peer: the healthcheck probes its own server, whose
// certificate may be self-signed or issued for a name other than the loopback address.
std::shared_ptr<boost::asio::ssl::context> make_probe_tls();

}  // namespace tanbo_server::server
