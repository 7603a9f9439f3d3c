// The 4-bit data-format codes of the Tensix configuration (unpacker In/Out_data_format, packer
// In/Out_data_format, ALU formats, Dstacc), stated once for every unit.
//
// Why one place: the unpackers decode and the packers encode the same codes; two tables drift.
// Names: the ISA's (FormatConversion.md) and the LLK's DataFormat spelling, which reaches the
// registers masked to 4 bits (UInt8 -> INT8, UInt16 -> INT16, UInt32 -> INT32; Bfp8/Bfp4/Bfp2 with
// a 5-bit shared exponent are the ISA's BFP*a, Bfp8_b/... with an 8-bit one its BFP*).
#pragma once

#include <cstdint>

namespace tc_tensix {

enum FormatCode : uint32_t {
    FP32 = 0, FP16 = 1, BFP8a = 2, BFP4a = 3, TF32 = 4, BF16 = 5, BFP8 = 6, BFP4 = 7,
    INT32 = 8, INT16 = 9, FP8 = 10, BFP2a = 11, INT8 = 14, BFP2 = 15,
};

struct FormatNames {
    const char* isa;
    const char* llk;
};

// The ISA's and the LLK's name of a code (its low 4 bits); codes 12 and 13 are reserved.
inline FormatNames format_names(uint32_t code) {
    switch (code & 0xfu) {
        case FP32: return {"FP32", "Float32"};
        case FP16: return {"FP16", "Float16"};
        case BFP8a: return {"BFP8a", "Bfp8"};
        case BFP4a: return {"BFP4a", "Bfp4"};
        case TF32: return {"TF32", "Tf32"};
        case BF16: return {"BF16", "Float16_b"};
        case BFP8: return {"BFP8", "Bfp8_b"};
        case BFP4: return {"BFP4", "Bfp4_b"};
        case INT32: return {"INT32", "Int32"};
        case INT16: return {"INT16", "UInt16"};
        case FP8: return {"FP8", "Lf8"};
        case BFP2a: return {"BFP2a", "Bfp2"};
        case INT8: return {"INT8", "Int8"};
        case BFP2: return {"BFP2", "Bfp2_b"};
        default: return {"reserved", "(invalid format code)"};
    }
}

// Whether a code is a block floating-point format (shared exponents stored apart from the datums).
inline bool is_bfp(uint32_t code) {
    switch (code & 0xfu) {
        case BFP8: case BFP8a: case BFP4: case BFP4a: case BFP2: case BFP2a: return true;
        default: return false;
    }
}

// Bits one datum of a format takes in L1 (for BFP formats, the datum without its shared
// exponent); 0 for a reserved code.
inline uint32_t datum_bits(uint32_t code) {
    switch (code & 0xfu) {
        case BFP2: case BFP2a: return 2;
        case BFP4: case BFP4a: return 4;
        case BFP8: case BFP8a: case FP8: case INT8: return 8;
        case FP16: case BF16: case INT16: return 16;
        case FP32: case TF32: case INT32: return 32;
        default: return 0;
    }
}

}  // namespace tc_tensix
