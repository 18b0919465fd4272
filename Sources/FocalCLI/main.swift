import Focal
import CFocal
print(FocalVersion.string, String(cString: cfocal_last_error()))
