"""Training code for the learned dice detector (offline only: needs PyTorch; never imported by the app)."""
