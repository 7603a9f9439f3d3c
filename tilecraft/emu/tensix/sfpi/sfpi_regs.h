// The register files SFPI names: dst_reg (Dst through SFPLOAD/SFPSTORE), l_reg (LReg0..7 by
// name) and the constant registers (vConst*), all backed by the machine (sfpi_host.h).
#pragma once

#include "sfpi_constants.h"
#include "sfpi_values.h"

namespace sfpi {

enum class LRegs : uint8_t { LReg0, LReg1, LReg2, LReg3, LReg4, LReg5, LReg6, LReg7, LRegCount = SFP_LREG_COUNT };

namespace impl_ {

// The SFPLOAD/SFPSTORE format (Mod0) a value type uses with layout `Fmt`: the Default layout is the
// type's own, and a layout the type cannot use is a compile error, as in SFPI.
template <typename T, DataLayout Fmt>
constexpr unsigned dst_format() {
    constexpr bool is_float = std::is_base_of_v<vFloat, T>;
    if constexpr (is_float) {
        constexpr DataLayout f = Fmt != DataLayout::Default ? Fmt
                                 : std::is_same_v<T, vFloat16a> ? DataLayout::F16a
                                 : std::is_same_v<T, vFloat16b> ? DataLayout::F16b
                                                                : DataLayout::FSrcB;
        static_assert(f == DataLayout::FSrcB || f == DataLayout::F32 ||
                          (f == DataLayout::F16a && !std::is_same_v<T, vFloat16b>) ||
                          (f == DataLayout::F16b && !std::is_same_v<T, vFloat16a>),
                      "sfpi: this DataLayout cannot hold a vFloat");
        return f == DataLayout::FSrcB ? SFPLOAD_MOD0_FMT_SRCB
               : f == DataLayout::F32 ? SFPLOAD_MOD0_FMT_FP32
               : f == DataLayout::F16a ? SFPLOAD_MOD0_FMT_FP16A
                                       : SFPLOAD_MOD0_FMT_FP16B;
    } else if constexpr (std::is_same_v<T, vInt>) {
        constexpr DataLayout f = Fmt != DataLayout::Default ? Fmt : DataLayout::SM32;  // Wormhole default
        static_assert(f == DataLayout::I32 || f == DataLayout::SM32, "sfpi: vInt uses DataLayout I32 or SM32");
        return f == DataLayout::I32 ? SFPLOAD_MOD0_FMT_INT32 : SFPLOAD_MOD0_FMT_SM32;
    } else if constexpr (std::is_same_v<T, vUInt> || std::is_same_v<T, vMag> || std::is_same_v<T, vUInt16>) {
        constexpr DataLayout f = Fmt != DataLayout::Default ? Fmt
                                 : std::is_same_v<T, vUInt>  ? DataLayout::U32
                                 : std::is_same_v<T, vMag>   ? DataLayout::M32
                                                             : DataLayout::U16;
        static_assert(f == DataLayout::U32 || f == DataLayout::M32 || f == DataLayout::U16 || f == DataLayout::LO16 ||
                          f == DataLayout::HI16,
                      "sfpi: unsigned values use DataLayout U32, M32, U16, LO16 or HI16");
        return (f == DataLayout::U32 || f == DataLayout::M32) ? SFPLOAD_MOD0_FMT_INT32
               : f == DataLayout::U16                         ? SFPLOAD_MOD0_FMT_UINT16
               : f == DataLayout::LO16                        ? SFPLOAD_MOD0_FMT_LO16
                                                              : SFPLOAD_MOD0_FMT_HI16;
    } else if constexpr (std::is_same_v<T, vSMag> || std::is_same_v<T, vSMag16>) {
        constexpr DataLayout f = Fmt != DataLayout::Default ? Fmt
                                 : std::is_same_v<T, vSMag> ? DataLayout::SM32
                                                            : DataLayout::SM16;
        static_assert((f == DataLayout::I32 && std::is_same_v<T, vSMag>) || f == DataLayout::SM32 ||
                          f == DataLayout::SM16,
                      "sfpi: vSMag uses DataLayout I32, SM32 or SM16; vSMag16 SM16");
        // I32 as SFPI spells it for Wormhole: Dst's int32 through SFPLOAD/SFPSTORE format SM32
        return f == DataLayout::SM16 ? SFPLOAD_MOD0_FMT_INT16
               : f == DataLayout::I32 ? SFPLOAD_MOD0_FMT_SM32
                                      : SFPLOAD_MOD0_FMT_INT32;
    } else {
        static_assert(tc_false<T>, "sfpi: this vector type cannot be loaded from or stored to Dst");
        return 0;
    }
}

// dst_reg[i]: Dst address `addr` (2 per dst_reg index), relative to the Dst counter, read with
// layout Fmt and address modifier `addr_mode` (-1: SFPI's no-increment default).
template <DataLayout Fmt = DataLayout::Default>
class DstReg {
    int addr_;
    int addr_mode_;

    unsigned mod() const { return addr_mode_ < 0 ? SFPLOAD_ADDR_MODE_NOINC : unsigned(addr_mode_); }
    template <typename T>
    T load() const {
        return T(tc_tensix::sfpi_host::dst_load(dst_format<T, Fmt>(), unsigned(addr_), mod()));
    }
    template <typename T>
    void store(const T& v) const {
        tc_tensix::sfpi_host::dst_store(v.get(), dst_format<T, Fmt>(), unsigned(addr_), mod());
    }

public:
    constexpr explicit DstReg(int addr, int addr_mode = -1) : addr_(addr), addr_mode_(addr_mode) {}
    constexpr int get() const { return addr_; }

    // dst_reg[i].mode<DataLayout::I32>(), dst_reg[i].mode(ADDR_MOD_2), or both.
    template <DataLayout NewFmt = DataLayout::Default>
    constexpr DstReg<NewFmt != DataLayout::Default ? NewFmt : Fmt> mode(int addr_mode = -1) const {
        return DstReg<NewFmt != DataLayout::Default ? NewFmt : Fmt>(addr_, addr_mode >= 0 ? addr_mode : addr_mode_);
    }

    operator vFloat() const { return load<vFloat>(); }
    operator vFloat16a() const { return load<vFloat16a>(); }
    operator vFloat16b() const { return load<vFloat16b>(); }
    operator vInt() const { return load<vInt>(); }
    operator vUInt() const { return load<vUInt>(); }
    operator vMag() const { return load<vMag>(); }
    operator vUInt16() const { return load<vUInt16>(); }
    operator vSMag() const { return load<vSMag>(); }
    operator vSMag16() const { return load<vSMag16>(); }

    void operator=(const vFloat& v) const { store(v); }
    void operator=(const vFloat16a& v) const { store(v); }
    void operator=(const vFloat16b& v) const { store(v); }
    void operator=(const vInt& v) const { store(v); }
    void operator=(const vUInt& v) const { store(v); }
    void operator=(const vMag& v) const { store(v); }
    void operator=(const vUInt16& v) const { store(v); }
    void operator=(const vSMag& v) const { store(v); }
    void operator=(const vSMag16& v) const { store(v); }
    void operator=(float v) const { store(vFloat(v)); }
    void operator=(const DstReg& other) const { store(vFloat(other)); }  // deprecated Dst-to-Dst copy
    vFloat operator-() const { return -vFloat(*this); }
};

class DstRegFile {
public:
    constexpr DstRegFile() = default;
    DstRegFile(const DstRegFile&) = delete;
    DstRegFile& operator=(const DstRegFile&) = delete;

    constexpr DstReg<> operator[](int i) const { return DstReg<>(i * int(SFP_DESTREG_STRIDE)); }
    // Advance the Dst counter by n dst_reg indices (INCRWC).
    void operator+=(int n) const { tc_tensix::sfpi_host::advance_dst(unsigned(n) * SFP_DESTREG_STRIDE); }
    void operator++() const { *this += 1; }
    void operator++(int) const { *this += 1; }
};

// l_reg[LRegs::LRegN]: the machine's LReg N itself (shared with TTI_SFP* code).
class LReg {
    unsigned idx_;

public:
    constexpr explicit LReg(unsigned idx) : idx_(idx) {}
    constexpr unsigned get() const { return idx_; }
    const LReg& operator=(const vVal& v) const {
        tc_tensix::sfpi_host::write_lreg(idx_, v.get());
        return *this;
    }
    const LReg& operator=(const LReg& other) const { return *this = vVal(sfpu_t(other)); }
    operator sfpu_t() const { return tc_tensix::sfpi_host::read_lreg(idx_); }
    // Marks the LReg live across code the compiler cannot see (a no-op on the host).
    void in_use() const {}
    template <typename T, std::enable_if_t<std::is_base_of_v<vVal, T>>* = nullptr>
    operator T() const {
        return T(sfpu_t(*this));
    }
};

class LRegFile {
public:
    constexpr LRegFile() = default;
    LRegFile(const LRegFile&) = delete;
    LRegFile& operator=(const LRegFile&) = delete;
    constexpr LReg operator[](LRegs r) const { return LReg(unsigned(r)); }
};

// A constant LReg read as type T; the programmable ones (11..14) are written through SFPCONFIG.
template <typename T>
class ConstReg {
    unsigned idx_;

public:
    constexpr explicit ConstReg(unsigned idx) : idx_(idx) {}
    operator T() const { return T(tc_tensix::sfpi_host::read_lreg(idx_)); }
    void operator=(const T& v) const { tc_tensix::sfpi_host::write_config_lreg(idx_, v.get()); }
    template <typename U, std::enable_if_t<std::is_constructible_v<T, const U&> && !std::is_same_v<T, U>>* = nullptr>
    void operator=(const U& u) const {
        *this = T(u);
    }
};

}  // namespace impl_

inline constexpr impl_::DstRegFile dst_reg;
inline constexpr impl_::LRegFile l_reg;

inline constexpr impl_::ConstReg<vFloat> vConst0(CREG_IDX_0);
inline constexpr impl_::ConstReg<vFloat> vConst1(CREG_IDX_1);
inline constexpr impl_::ConstReg<vFloat> vConstNeg1(CREG_IDX_NEG_1);
inline constexpr impl_::ConstReg<vFloat> vConst0p8373(CREG_IDX_0P837300003);
inline constexpr impl_::ConstReg<vFloat> vConstFloatPrgm0(CREG_IDX_PRGM1);
inline constexpr impl_::ConstReg<vFloat> vConstFloatPrgm1(CREG_IDX_PRGM2);
inline constexpr impl_::ConstReg<vFloat> vConstFloatPrgm2(CREG_IDX_PRGM3);
inline constexpr impl_::ConstReg<vInt> vConstIntPrgm0(CREG_IDX_PRGM1);
inline constexpr impl_::ConstReg<vInt> vConstIntPrgm1(CREG_IDX_PRGM2);
inline constexpr impl_::ConstReg<vInt> vConstIntPrgm2(CREG_IDX_PRGM3);
inline constexpr impl_::ConstReg<vInt> vConstTileId(CREG_IDX_TILEID);

}  // namespace sfpi
