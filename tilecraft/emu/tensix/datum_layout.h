// How datums sit in the bits of SrcA/SrcB and Dst, as the ISA documents them (SrcASrcB.md "Data
// type bit layout", Dst.md "Data type bit layout"): the register files do not hold IEEE bit
// patterns. Every unit that reads or writes these registers (unpackers, matrix unit, packers,
// vector unit) converts through these functions, so the layout is stated once.
//
//   Src (19 bit)   BF16/TF32: Sign[18] Man10[17:8] Exp8[7:0]   (BF16: the low 3 mantissa bits 0)
//                  FP16:      Sign[18] Man10[17:8] 0[7:5] Exp5[4:0]
//                  INT8:      Sign[18] Mag10[17:8] 0[7:5] Exp5[4:0] (Exp5 = 16, or 0 for zero)
//   Dst16 (16 bit) BF16: Sign[15] Man7[14:8] Exp8[7:0];  FP16: Sign[15] Man10[14:5] Exp5[4:0]
//   Dst32 (32 bit) FP32 / INT32 (sign-magnitude): Sign[31] ManHi7[30:24] Exp8[23:16] ManLo16[15:0]
//                  i.e. the high half is a Dst16 BF16, the low half the rest of the mantissa.
#pragma once

#include <cstdint>

namespace tc_tensix {

// --- Src (19-bit) ---
constexpr uint32_t src_sign(uint32_t v) { return (v >> 18) & 1u; }
constexpr uint32_t src_man(uint32_t v) { return (v >> 8) & 0x3ffu; }
constexpr uint32_t src_exp(uint32_t v) { return v & 0xffu; }

// An fp32 bit pattern as a TF32 Src datum (the low 13 mantissa bits dropped); BF16 data (the
// low 16 bits zero) lands with the low 3 Src mantissa bits zero.
constexpr uint32_t src_from_fp32(uint32_t f) {
    return ((f >> 31) << 18) | (((f >> 13) & 0x3ffu) << 8) | ((f >> 23) & 0xffu);
}
// A BF16/TF32 Src datum as an fp32 bit pattern.
constexpr uint32_t src_to_fp32(uint32_t v) { return (src_sign(v) << 31) | (src_exp(v) << 23) | (src_man(v) << 13); }
// An IEEE fp16 bit pattern as an FP16 Src datum, and back.
constexpr uint32_t src_from_fp16(uint16_t h) {
    return (uint32_t(h >> 15) << 18) | (uint32_t(h & 0x3ffu) << 8) | ((h >> 10) & 0x1fu);
}
constexpr uint16_t src_to_fp16(uint32_t v) {
    return uint16_t((src_sign(v) << 15) | ((v & 0x1fu) << 10) | src_man(v));
}

// --- Dst16 ---
// bf16 (the high half of an fp32 pattern) <-> Dst16 BF16.
constexpr uint16_t dst16_from_bf16(uint16_t b) { return uint16_t((b & 0x8000u) | ((b & 0x7fu) << 8) | ((b >> 7) & 0xffu)); }
constexpr uint16_t bf16_from_dst16(uint16_t d) { return uint16_t((d & 0x8000u) | ((d & 0xffu) << 7) | ((d >> 8) & 0x7fu)); }
// IEEE fp16 <-> Dst16 FP16.
constexpr uint16_t dst16_from_fp16(uint16_t h) { return uint16_t((h & 0x8000u) | ((h & 0x3ffu) << 5) | ((h >> 10) & 0x1fu)); }
constexpr uint16_t fp16_from_dst16(uint16_t d) { return uint16_t((d & 0x8000u) | ((d & 0x1fu) << 10) | ((d >> 5) & 0x3ffu)); }

// --- Dst32 ---
// fp32 (or sign-magnitude int32) bit pattern <-> Dst32 word.
constexpr uint32_t dst32_from_fp32(uint32_t f) { return (uint32_t(dst16_from_bf16(uint16_t(f >> 16))) << 16) | (f & 0xffffu); }
constexpr uint32_t fp32_from_dst32(uint32_t d) { return (uint32_t(bf16_from_dst16(uint16_t(d >> 16))) << 16) | (d & 0xffffu); }

}  // namespace tc_tensix
