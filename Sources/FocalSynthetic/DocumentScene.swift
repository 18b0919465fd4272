import Focal
