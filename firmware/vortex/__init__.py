"""vortex: firmware of the smart board for the terrain game (seeds/002)."""
