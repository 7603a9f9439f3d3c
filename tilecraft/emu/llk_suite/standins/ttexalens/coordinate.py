"""``ttexalens.coordinate.OnChipCoordinate``: logical ``x,y`` cores of the harness device."""

from tilecraft.emu.llk_suite.device import Coordinate


class OnChipCoordinate:
    @staticmethod
    def create(location, device) -> Coordinate:
        return device.coordinate(location)


__all__ = ["OnChipCoordinate"]
