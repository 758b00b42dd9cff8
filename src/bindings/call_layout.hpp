// How the call records the JS layer writes into wasm memory are laid out, described from the
// records themselves: every record (AttentionOptions, AttentionCall, AttentionBackwardCall,
// KvAttendCall, TraceDims, TraceCall) lists its fields once, in a static each_field(visit), and
// names itself in a static `name`. describe_layouts<...>() turns those lists into one JSON object
// the JS layer reads once when the module loads (src/js/core-call.mjs packs records with it):
//   { "AttentionOptions": { "size": 32, "fields": [["scale", 0, "f32"], ...] }, ... }
// Field types: f32, bool (one byte, 0 or 1), i32 (enums too), u32, i64, address (a pointer, or
// a size_t, the same type: 4 bytes in wasm32), u32[4], or the name of another record (nested
// in place).
// No Emscripten header here, so the native tests check the description.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <type_traits>

namespace call_layout {

template <class T>
std::string type_name() {
  if constexpr (std::is_same_v<T, float>)
    return "f32";
  else if constexpr (std::is_same_v<T, bool>)
    return "bool";
  else if constexpr (std::is_same_v<T, std::int64_t>)
    return "i64";
  else if constexpr (std::is_same_v<T, std::uint32_t>)
    return "u32";
  else if constexpr (std::is_same_v<T, std::int32_t>)
    return "i32";
  else if constexpr (std::is_same_v<T, std::uintptr_t> || std::is_same_v<T, std::size_t> ||
                     std::is_pointer_v<T>)
    return "address";
  else if constexpr (std::is_same_v<T, std::array<std::uint32_t, 4>>)
    return "u32[4]";
  else if constexpr (std::is_enum_v<T>) {
    static_assert(std::is_same_v<std::underlying_type_t<T>, int>, "enums cross as int32");
    return "i32";
  } else {
    return T::name;  // a nested record, described on its own
  }
}

// Byte offset of `member` in a Record (records are standard-layout).
template <class Record, class T>
std::size_t offset_of(T Record::*member) {
  static const Record probe{};
  return std::size_t(reinterpret_cast<const char*>(&(probe.*member)) -
                     reinterpret_cast<const char*>(&probe));
}

// "Name": { "size": ..., "fields": [...] } for one record.
template <class Record>
std::string describe() {
  std::string fields;
  Record::each_field([&](const char* name, auto member) {
    using T = std::remove_reference_t<decltype(std::declval<Record&>().*member)>;
    if (!fields.empty()) fields += ",";
    fields += "[\"" + std::string(name) + "\"," + std::to_string(offset_of(member)) + ",\"" +
              type_name<T>() + "\"]";
  });
  return "\"" + std::string(Record::name) + "\":{\"size\":" + std::to_string(sizeof(Record)) +
         ",\"fields\":[" + fields + "]}";
}

// One JSON object describing every record given.
template <class... Records>
std::string describe_layouts() {
  std::string json;
  ((json += (json.empty() ? "" : ",") + describe<Records>()), ...);
  return "{" + json + "}";
}

}  // namespace call_layout
