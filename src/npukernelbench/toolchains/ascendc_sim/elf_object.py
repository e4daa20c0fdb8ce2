"""The symbol table and relocations of a relocatable ELF64 object (little-endian), read in Python: what
the device-symbol check needs to know about a compiled kernel object."""

from __future__ import annotations

import struct
from dataclasses import dataclass
from pathlib import Path

SHT_SYMTAB, SHT_RELA, SHT_REL, SHT_SYMTAB_SHNDX = 2, 4, 9, 18
SHN_UNDEF, SHN_XINDEX = 0, 0xFFFF
STT_OBJECT, STT_FUNC, STT_SECTION = 1, 2, 3
STB_LOCAL = 0


class ElfError(ValueError):
    """Not an object this reader understands."""


@dataclass(frozen=True)
class Section:
    index: int
    name: str
    type: int
    flags: int
    offset: int
    size: int
    link: int
    info: int
    entsize: int


@dataclass(frozen=True)
class Symbol:
    index: int
    name: str
    type: int
    bind: int
    shndx: int          # SHN_UNDEF for an undefined symbol, else the defining section's index
    value: int
    size: int

    @property
    def defined(self) -> bool:
        return self.shndx != SHN_UNDEF


@dataclass(frozen=True)
class Relocation:
    section: int        # the section the relocation patches
    offset: int         # where in it
    symbol: int         # index into the symbol table
    addend: int


@dataclass(frozen=True)
class ElfObject:
    sections: tuple[Section, ...]
    symbols: tuple[Symbol, ...]
    relocations: tuple[Relocation, ...]

    def section_named(self, name: str) -> Section | None:
        return next((s for s in self.sections if s.name == name), None)


def _cstr(table: bytes, offset: int) -> str:
    end = table.find(b"\0", offset)
    return table[offset:end if end >= 0 else len(table)].decode("utf-8", "replace")


def read(path: Path) -> ElfObject:
    """Sections, symbols and relocations of ``path``; ElfError when it is not a 64-bit little-endian ELF."""
    data = Path(path).read_bytes()
    if data[:4] != b"\x7fELF" or len(data) < 64:
        raise ElfError(f"{path} is not an ELF file")
    if data[4] != 2 or data[5] != 1:
        raise ElfError(f"{path} is not a 64-bit little-endian ELF object")
    shoff, = struct.unpack_from("<Q", data, 0x28)
    shentsize, shnum, shstrndx = struct.unpack_from("<HHH", data, 0x3A)
    if shoff == 0 or shentsize < 64:
        raise ElfError(f"{path} has no section headers")
    first = struct.unpack_from("<IIQQQQIIQQ", data, shoff)
    if shnum == 0:
        shnum = first[5]                    # extended numbering: the count is section 0's size
    if shstrndx == SHN_XINDEX:
        shstrndx = first[6]
    raw = [struct.unpack_from("<IIQQQQIIQQ", data, shoff + i * shentsize) for i in range(shnum)]
    names = data[raw[shstrndx][4]:raw[shstrndx][4] + raw[shstrndx][5]]
    sections = tuple(Section(index=i, name=_cstr(names, r[0]), type=r[1], flags=r[2], offset=r[4], size=r[5],
                             link=r[6], info=r[7], entsize=r[9]) for i, r in enumerate(raw))
    symtab = next((s for s in sections if s.type == SHT_SYMTAB), None)
    if symtab is None:
        return ElfObject(sections, (), ())
    strtab = data[sections[symtab.link].offset:sections[symtab.link].offset + sections[symtab.link].size]
    xindex = next((s for s in sections if s.type == SHT_SYMTAB_SHNDX and s.link == symtab.index), None)
    symbols = []
    for i in range(symtab.size // 24):
        name, info, _other, shndx, value, size = struct.unpack_from("<IBBHQQ", data, symtab.offset + i * 24)
        if shndx == SHN_XINDEX and xindex is not None:
            shndx, = struct.unpack_from("<I", data, xindex.offset + 4 * i)
        is_section = (info & 0xF) == STT_SECTION and shndx < len(sections)
        sym_name = sections[shndx].name if is_section else _cstr(strtab, name)
        symbols.append(Symbol(index=i, name=sym_name, type=info & 0xF, bind=info >> 4, shndx=shndx, value=value,
                              size=size))
    relocations = []
    for sec in sections:
        if sec.type not in (SHT_RELA, SHT_REL) or sec.link != symtab.index:
            continue
        width = 24 if sec.type == SHT_RELA else 16
        for k in range(sec.size // width):
            if sec.type == SHT_RELA:
                offset, info, addend = struct.unpack_from("<QQq", data, sec.offset + k * width)
            else:
                (offset, info), addend = struct.unpack_from("<QQ", data, sec.offset + k * width), 0
            relocations.append(Relocation(section=sec.info, offset=offset, symbol=info >> 32, addend=addend))
    return ElfObject(sections, tuple(symbols), tuple(relocations))
