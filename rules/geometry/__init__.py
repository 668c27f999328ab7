"""The shapely kernel: bases, paths, sweeps, contact, occupancy, sight, table edges."""
