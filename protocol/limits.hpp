#pragma once
// The protocol's numbers: hard limits of the message format, and the defaults of the server's
// configurable limits. docs/protocol.md ("Limits") lists each with its reason; keep both in step.
#include <array>
#include <cstddef>
#include <cstdint>

namespace tanbo_server::protocol {

// The version a client names in hello (docs/protocol-changelog.md): the latest, and the oldest
// still spoken. A hello naming none is the oldest's.
inline constexpr int kProtocolVersion = 2;
inline constexpr int kOldestProtocol = 1;

// Format limits, enforced by parse(): a frame breaking one is refused whatever the server config.
inline constexpr std::size_t kMaxFrameBytes = 64 * 1024;  // larger frames: too_large, close 1009
inline constexpr int kMaxDepth = 32;            // nesting of arrays and objects in one frame
inline constexpr std::size_t kMaxIdChars = 64;  // a string `id`
inline constexpr std::size_t kMaxTokenChars = 128;
// What a username and a password may be on the wire; the account rules are narrower (24 and 128
// characters) and answered with their own codes.
inline constexpr std::size_t kMaxUsernameChars = 64;
inline constexpr std::size_t kMaxPasswordWireChars = 1024;
inline constexpr std::size_t kMinNameChars = 1;
inline constexpr std::size_t kMaxNameChars = 24;     // display names, in code points after NFKC
inline constexpr std::size_t kMaxMarksInRow = 4;     // combining marks on one letter of a name
inline constexpr std::size_t kMaxRoomChars = 64;     // room ids
inline constexpr std::size_t kMaxGameChars = 64;     // game ids
inline constexpr int kMaxSeats = 8;                  // seats per room (games take 2 to 4 today)
inline constexpr int kMaxCpuAfterSeconds = 3600;     // seek's cpu_after
inline constexpr std::size_t kMaxTicketChars = 64;   // seek and challenge ids
inline constexpr std::size_t kMaxChatChars = 280;    // a chat line, after NFC
inline constexpr std::size_t kMaxReasonChars = 500;  // a report's reason
inline constexpr std::size_t kChatHistory = 50;      // lines per channel with a join
inline constexpr int kChatBurst = 5;                 // chat lines at once per identity...
inline constexpr int kChatPerSecond = 1;             // ...then one a second
inline constexpr int kChatAddressBurst = 30;         // per address (a household, a classroom)...
inline constexpr int kChatAddressPerSecond = 5;      // ...then five a second

// Server defaults (configurable there; documented here so clients know what to expect).
inline constexpr std::size_t kHistorySteps = 64;     // steps a room keeps for `resume`
inline constexpr int kLobbyPushMs = 500;             // at most one `lobby` push per interval
inline constexpr int kRateBurst = 20;                // token bucket: capacity, in messages
inline constexpr int kRatePerSecond = 10;            // token bucket: refill
inline constexpr int kRateStrikes = 50;              // rate_limited answers before close 1008
inline constexpr int kMaxRoomsPerIdentity = 8;       // unfinished rooms created by one identity
inline constexpr int kIdleTimeoutSeconds = 300;      // no frame nor pong for this long: close
inline constexpr std::size_t kOutQueueFrames = 256;  // queued outgoing frames per connection
inline constexpr std::size_t kOutQueueBytes = 4 * 1024 * 1024;  // ... and their bytes
inline constexpr int kMaxConnections = 10000;

// WebSocket close codes the server uses (RFC 6455, 7.4.1).
inline constexpr std::uint16_t kCloseGoingAway = 1001;    // server shutting down
inline constexpr std::uint16_t kCloseUnsupported = 1003;  // binary frame
inline constexpr std::uint16_t kCloseBadData = 1007;      // text frame not valid UTF-8
inline constexpr std::uint16_t kClosePolicy = 1008;       // rate abuse, slow consumer, idle
inline constexpr std::uint16_t kCloseTooBig = 1009;       // frame over kMaxFrameBytes

}  // namespace tanbo_server::protocol
