"""Every write to the tabletop's data: `<entity>_<action>(*, ...)`, one transaction each."""
