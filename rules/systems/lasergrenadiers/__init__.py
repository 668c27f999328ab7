"""LaserGrenadiers (seed 003): tables, hooks and actions on the shared movement kernel."""
